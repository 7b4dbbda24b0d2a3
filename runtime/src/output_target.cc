//===- output_target.cc - Writing to a path as users give it --------------===//

#include "output_target.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <initializer_list>
#include <linux/fs.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

namespace wgtrace::output {
namespace {

/// Symlinks followed before giving up, as the kernel's limit.
constexpr int kMaxLinks = 40;

size_t length(const char *Text) {
  size_t N = 0;
  while (Text[N])
    ++N;
  return N;
}

bool startsWith(const char *Text, const char *Prefix) {
  for (; *Prefix; ++Text, ++Prefix)
    if (*Text != *Prefix)
      return false;
  return true;
}

/// Appends \p Text to the terminated string in [Out, Out + Size); false
/// when it does not fit.
bool append(char *Out, size_t Size, const char *Text) {
  size_t At = length(Out);
  size_t N = length(Text);
  if (At + N + 1 > Size)
    return false;
  std::memcpy(Out + At, Text, N + 1);
  return true;
}

bool appendNumber(char *Out, size_t Size, unsigned long Value) {
  char Digits[24];
  char Text[24];
  int N = 0;
  do {
    Digits[N++] = static_cast<char>('0' + Value % 10);
    Value /= 10;
  } while (Value);
  int At = 0;
  while (N)
    Text[At++] = Digits[--N];
  Text[At] = '\0';
  return append(Out, Size, Text);
}

bool copy(char *Out, size_t Size, const char *Text) {
  if (Size == 0)
    return false;
  Out[0] = '\0';
  return append(Out, Size, Text);
}

FileIdentity identityOf(const struct stat &S) {
  FileIdentity I;
  I.Exists = true;
  I.Device = S.st_dev;
  I.Inode = S.st_ino;
  I.ChangeNs = int64_t(S.st_ctim.tv_sec) * 1000000000 + S.st_ctim.tv_nsec;
  I.Size = uint64_t(S.st_size);
  return I;
}

bool sameFile(const struct stat &A, const struct stat &B) {
  return A.st_dev == B.st_dev && A.st_ino == B.st_ino;
}

/// Paths through which the kernel reaches a process's open files: what
/// they name is a descriptor, not a place in a folder.
bool isDescriptorLink(const char *Path) {
  return startsWith(Path, "/proc/") || startsWith(Path, "/dev/fd/") ||
         startsWith(Path, "/dev/std");
}

/// Follows the symlinks of \p Path's last component into \p Out: the path
/// a file must be created or replaced at for the link to show it. Sets
/// \p ThroughDescriptor when a step is a descriptor link. Returns 0 or an
/// errno.
int followLinks(const char *Path, char *Out, size_t Size,
                bool &ThroughDescriptor) {
  if (!copy(Out, Size, Path))
    return ENAMETOOLONG;
  ThroughDescriptor = isDescriptorLink(Out);
  for (int Step = 0;; ++Step) {
    struct stat S;
    if (::lstat(Out, &S) != 0)
      return errno == ENOENT ? 0 : errno;
    if (!S_ISLNK(S.st_mode))
      return 0;
    if (Step == kMaxLinks)
      return ELOOP;
    char Link[PATH_MAX];
    ssize_t N = ::readlink(Out, Link, sizeof(Link) - 1);
    if (N < 0)
      return errno;
    Link[N] = '\0';
    if (Link[0] == '/') {
      if (!copy(Out, Size, Link))
        return ENAMETOOLONG;
    } else {
      // Relative to the link's folder.
      size_t Slash = length(Out);
      while (Slash > 0 && Out[Slash - 1] != '/')
        --Slash;
      Out[Slash] = '\0';
      if (!append(Out, Size, Link))
        return ENAMETOOLONG;
    }
    ThroughDescriptor |= isDescriptorLink(Out);
  }
}

/// rename() that fails with EEXIST instead of replacing a file.
int renameNoReplace(const char *From, const char *To) {
#ifdef SYS_renameat2
  if (::syscall(SYS_renameat2, AT_FDCWD, From, AT_FDCWD, To,
                RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return errno;
#endif
  // A file system without renameat2's flag: link() fails on an existing
  // name just as atomically.
  if (::link(From, To) != 0)
    return errno;
  ::unlink(From);
  return 0;
}

int closeChecked(Open &O) {
  int Error = 0;
  if (O.Fd >= 0 && ::close(O.Fd) != 0 && errno != EINTR)
    Error = errno;
  O.Fd = -1;
  return Error;
}

void removeTemporary(Open &O) {
  if (O.TemporaryPath[0])
    ::unlink(O.TemporaryPath);
  O.TemporaryPath[0] = '\0';
}

/// Takes the lock that orders two processes' writes of one file or FIFO;
/// a file system without such locks just does not order them.
void lockForWriting(int Fd) {
  struct flock Lock = {};
  Lock.l_type = F_WRLCK;
  Lock.l_whence = SEEK_SET;
  while (::fcntl(Fd, F_OFD_SETLKW, &Lock) != 0 && errno == EINTR) {
  }
}

} // namespace

FileIdentity identify(const char *Path) {
  struct stat S;
  if (::stat(Path, &S) != 0)
    return {};
  return identityOf(S);
}

int resolve(const char *Path, Target &T) {
  T = Target();
  bool ThroughDescriptor = false;
  if (int Error = followLinks(Path, T.Path, sizeof(T.Path), ThroughDescriptor))
    return Error;
  struct stat S;
  if (::stat(Path, &S) != 0) {
    if (errno != ENOENT)
      return errno;
    // Nothing there yet (or a dangling link): created at the link's target.
    return 0;
  }
  if (S_ISDIR(S.st_mode))
    return EISDIR;
  if (ThroughDescriptor) {
    for (int Fd : {1, 2}) {
      struct stat Own;
      if (::fstat(Fd, &Own) == 0 && sameFile(Own, S)) {
        T.How = Kind::Descriptor;
        T.Fd = Fd;
        return copy(T.Path, sizeof(T.Path), Path) ? 0 : ENAMETOOLONG;
      }
    }
  }
  if (S_ISREG(S.st_mode) && !ThroughDescriptor) {
    T.Existed = true;
    T.Mode = S.st_mode & 07777;
    return 0;
  }
  // A device, a FIFO, a socket, or a file reached through another
  // process's descriptor link: written where it is.
  T.How = S_ISSOCK(S.st_mode) ? Kind::Socket : Kind::InPlace;
  T.Fifo = S_ISFIFO(S.st_mode);
  return copy(T.Path, sizeof(T.Path), Path) ? 0 : ENAMETOOLONG;
}

int open(const Target &T, Open &O) {
  O = Open();
  switch (T.How) {
  case Kind::Descriptor:
    O.Fd = ::fcntl(T.Fd, F_DUPFD_CLOEXEC, 3);
    return O.Fd < 0 ? errno : 0;
  case Kind::Socket: {
    struct sockaddr_un Address = {};
    Address.sun_family = AF_UNIX;
    if (length(T.Path) >= sizeof(Address.sun_path))
      return ENAMETOOLONG;
    std::memcpy(Address.sun_path, T.Path, length(T.Path) + 1);
    O.Fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (O.Fd < 0)
      return errno;
    if (::connect(O.Fd, reinterpret_cast<struct sockaddr *>(&Address),
                  sizeof(Address)) != 0) {
      int Error = errno;
      closeChecked(O);
      return Error;
    }
    return 0;
  }
  case Kind::InPlace: {
    // Never truncated: a device has nothing to truncate, and a file seen
    // through a descriptor link may hold what its owner wrote before.
    struct stat S;
    bool Regular = ::stat(T.Path, &S) == 0 && S_ISREG(S.st_mode);
    O.Fd = ::open(T.Path, O_WRONLY | O_CLOEXEC | (Regular ? O_APPEND : 0));
    if (O.Fd < 0)
      return errno;
    if (T.Fifo)
      lockForWriting(O.Fd);
    return 0;
  }
  case Kind::Replace:
    break;
  }
  // ".<name>.wgtrace-<pid>-<n>.tmp" in the file's folder (a rename stays on
  // one file system), hidden, and unique: O_EXCL fails on a name another
  // process (or an earlier run killed before it could remove it) took.
  size_t Slash = length(T.Path);
  while (Slash > 0 && T.Path[Slash - 1] != '/')
    --Slash;
  for (unsigned long N = 0; N < 1000; ++N) {
    char *Name = O.TemporaryPath;
    size_t Size = sizeof(O.TemporaryPath);
    if (Slash + 1 > Size)
      return ENAMETOOLONG;
    std::memcpy(Name, T.Path, Slash);
    Name[Slash] = '\0';
    if (!append(Name, Size, ".") || !append(Name, Size, T.Path + Slash) ||
        !append(Name, Size, ".wgtrace-") ||
        !appendNumber(Name, Size, static_cast<unsigned long>(::getpid())) ||
        !append(Name, Size, "-") || !appendNumber(Name, Size, N) ||
        !append(Name, Size, ".tmp")) {
      O.TemporaryPath[0] = '\0';
      return ENAMETOOLONG;
    }
    O.Fd = ::open(Name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (O.Fd >= 0) {
      // The file replaced keeps its permissions.
      if (T.Existed)
        ::fchmod(O.Fd, T.Mode);
      return 0;
    }
    if (errno != EEXIST) {
      int Error = errno;
      O.TemporaryPath[0] = '\0';
      return Error;
    }
  }
  O.TemporaryPath[0] = '\0';
  return EEXIST;
}

void discard(Open &O) {
  closeChecked(O);
  removeTemporary(O);
}

int commitReplace(const Target &T, Open &O) {
  if (int Error = closeChecked(O)) {
    removeTemporary(O);
    return Error;
  }
  if (T.How != Kind::Replace)
    return 0;
  if (::rename(O.TemporaryPath, T.Path) != 0) {
    int Error = errno;
    removeTemporary(O);
    return Error;
  }
  O.TemporaryPath[0] = '\0';
  return 0;
}

namespace {

/// Whether the regular file at \p Path has bytes and does not begin with
/// \p Magic.
bool holdsOtherData(const char *Path, uint32_t Magic) {
  const int Fd = ::open(Path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0)
    return false;
  struct stat S;
  bool Other = false;
  if (::fstat(Fd, &S) == 0 && S_ISREG(S.st_mode) && S.st_size > 0) {
    uint32_t First = 0;
    Other = ::pread(Fd, &First, sizeof(First), 0) !=
                static_cast<ssize_t>(sizeof(First)) ||
            First != Magic;
  }
  ::close(Fd);
  return Other;
}

} // namespace

int commitExclusive(const Target &T, Open &O, const FileIdentity &Baseline,
                    uint32_t Magic, char *Written, size_t Size,
                    bool &KeptOther) {
  KeptOther = false;
  if (!copy(Written, Size, T.Path))
    Written[0] = '\0';
  if (T.How != Kind::Replace)
    return commitReplace(T, O);
  if (int Error = closeChecked(O)) {
    removeTemporary(O);
    return Error;
  }
  // A process that found the same file waits here until this one has
  // replaced it, then finds this one's file and writes beside it.
  int LockFd = -1;
  if (Baseline.Exists) {
    LockFd = ::open(T.Path, O_WRONLY | O_CLOEXEC);
    if (LockFd >= 0)
      lockForWriting(LockFd);
  }
  FileIdentity Now = identify(T.Path);
  KeptOther = Now.Exists && holdsOtherData(T.Path, Magic);
  int Error = 0;
  if (Now.Exists && Now == Baseline && !KeptOther) {
    Error = ::rename(O.TemporaryPath, T.Path) == 0 ? 0 : errno;
  } else {
    Error = renameNoReplace(O.TemporaryPath, T.Path);
    // Another process wrote the file since this one began: beside it.
    for (unsigned long N = 0; Error == EEXIST && N < 100; ++N) {
      if (!copy(Written, Size, T.Path) || !append(Written, Size, ".") ||
          !appendNumber(Written, Size,
                        static_cast<unsigned long>(::getpid())) ||
          (N &&
           (!append(Written, Size, ".") || !appendNumber(Written, Size, N)))) {
        Error = ENAMETOOLONG;
        break;
      }
      Error = renameNoReplace(O.TemporaryPath, Written);
    }
  }
  if (LockFd >= 0)
    ::close(LockFd);
  if (Error)
    removeTemporary(O);
  else
    O.TemporaryPath[0] = '\0';
  return Error;
}

SigpipeBlock::SigpipeBlock() {
  sigset_t Pipe;
  sigemptyset(&Pipe);
  sigaddset(&Pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &Pipe, &Previous);
  sigset_t Pending;
  WasPending = sigpending(&Pending) == 0 && sigismember(&Pending, SIGPIPE);
}

SigpipeBlock::~SigpipeBlock() {
  sigset_t Pending;
  if (!WasPending && sigpending(&Pending) == 0 &&
      sigismember(&Pending, SIGPIPE)) {
    sigset_t Pipe;
    sigemptyset(&Pipe);
    sigaddset(&Pipe, SIGPIPE);
    struct timespec Now = {0, 0};
    while (sigtimedwait(&Pipe, nullptr, &Now) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &Previous, nullptr);
}

} // namespace wgtrace::output
