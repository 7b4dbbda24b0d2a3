//===- output_target.h - Writing to a path as users give it ---------------===//
//
// A trace (WGTRACE_FILE) or a report (wgtrace-view -o) goes to a path the
// user typed, which may name a symlink, a device, a FIFO or a socket as
// well as a file. The rules, the runtime's and the viewer's alike:
//
// * A regular file, or no file yet, is replaced atomically: the bytes go to
//   a temporary file in the same folder whose name is unique to the process
//   (created with O_EXCL), renamed over the file when complete and removed
//   on every error. Readers never see half a file, and two processes never
//   write one temporary file.
// * A symlink is followed: its target is written (replaced as above when it
//   is a regular file or does not exist yet), and the link stays a link.
// * A character or block device, a FIFO or a socket is opened (a socket
//   connected to) and written in place, never replaced: WGTRACE_FILE=
//   /dev/null writes nothing, even as root.
// * A path that names the process's own standard output or error (the
//   /dev/stdout link, /proc/self/fd/1) writes to that descriptor.
//
// Everything here is async-signal-safe and allocates nothing: the crash
// handler writes traces through it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_OUTPUT_TARGET_H
#define WGTRACE_RUNTIME_OUTPUT_TARGET_H

#include <climits>
#include <cstddef>
#include <cstdint>
#include <signal.h>

namespace wgtrace::output {

/// Which file a path named at one moment: what tells a file this process
/// found (or wrote) from one another process wrote since.
struct FileIdentity {
  bool Exists = false;
  uint64_t Device = 0;
  uint64_t Inode = 0;
  /// Status change time (a rename sets it) and size: an inode number can
  /// be reused by the next file created.
  int64_t ChangeNs = 0;
  uint64_t Size = 0;

  bool operator==(const FileIdentity &O) const {
    return Exists == O.Exists &&
           (!Exists || (Device == O.Device && Inode == O.Inode &&
                        ChangeNs == O.ChangeNs && Size == O.Size));
  }
  bool operator!=(const FileIdentity &O) const { return !(*this == O); }
};

/// The identity of the file at \p Path now (symlinks followed).
FileIdentity identify(const char *Path);

enum class Kind : uint8_t {
  /// A regular file, or none yet: a temporary file renamed over it.
  Replace,
  /// A device or a FIFO: opened and written in place.
  InPlace,
  /// A socket: connected to and written.
  Socket,
  /// The process's standard output or error.
  Descriptor,
};

/// Where a path's bytes go.
struct Target {
  Kind How = Kind::Replace;
  /// Replace: the regular file to create or replace, symlinks resolved.
  /// The others: the path as given.
  char Path[PATH_MAX] = {};
  /// Descriptor: 1 or 2.
  int Fd = -1;
  /// Replace: whether a file is there, and its permission bits, which
  /// the new file keeps.
  bool Existed = false;
  unsigned Mode = 0644;
  /// InPlace: a FIFO (two processes writing it take turns: see open()).
  bool Fifo = false;
};

/// Resolves \p Path into \p T. Returns 0, or the errno of what is wrong
/// (EISDIR: a directory; ELOOP: too many symlinks; ENAMETOOLONG).
int resolve(const char *Path, Target &T);

/// An output being written.
struct Open {
  int Fd = -1;
  /// Replace: the temporary file, renamed or removed by commit*/discard.
  char TemporaryPath[PATH_MAX] = {};
};

/// Opens \p T for writing into \p O. Replace creates the temporary file
/// (".<name>.wgtrace-<pid>-<n>.tmp" beside it); InPlace opens the path (a
/// FIFO waits for a reader, then is locked so that another process's
/// whole output comes before or after this one's, never inside it);
/// Socket connects (Unix stream socket); Descriptor duplicates it. Returns
/// 0 or an errno.
int open(const Target &T, Open &O);

/// Closes \p O. Replace: renames the temporary file over T.Path. Returns 0,
/// or the errno of the close or rename (the temporary file is then
/// removed).
int commitReplace(const Target &T, Open &O);

/// Closes \p O and, for Replace, removes the temporary file: an error path.
void discard(Open &O);

/// commitReplace() for a path that several processes may share. When the
/// file at T.Path is still \p Baseline (what was there when this process
/// began, or what it wrote there itself), it is replaced, under a lock
/// that makes a second process find this one's file; when anything else
/// is there now, another process wrote it since, and the temporary file
/// becomes "<path>.<pid>" instead (".<pid>.<n>" when that exists too),
/// never over another file. A non-empty regular file that does not begin
/// with the 4 bytes of \p Magic (native order) is not the writer's kind
/// of file (a source file given as the path by mistake): it is never
/// replaced either, and \p KeptOther is set. \p Written receives the path
/// written (\p Size bytes). Returns 0 or an errno. Async-signal-safe.
int commitExclusive(const Target &T, Open &O, const FileIdentity &Baseline,
                    uint32_t Magic, char *Written, size_t Size,
                    bool &KeptOther);

/// Blocks SIGPIPE on the calling thread while it lives: writing to a FIFO,
/// pipe or socket whose reader has gone then fails with EPIPE, which is
/// reported, instead of killing the process in the middle of its trace. A
/// SIGPIPE that the writes raised is taken back when it ends.
class SigpipeBlock {
public:
  SigpipeBlock();
  ~SigpipeBlock();
  SigpipeBlock(const SigpipeBlock &) = delete;
  SigpipeBlock &operator=(const SigpipeBlock &) = delete;

private:
  sigset_t Previous;
  bool WasPending = false;
};

} // namespace wgtrace::output

#endif // WGTRACE_RUNTIME_OUTPUT_TARGET_H
