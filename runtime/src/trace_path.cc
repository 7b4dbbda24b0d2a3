//===- trace_path.cc - Where a process writes its trace -------------------===//

#include "trace_path.h"

#include <climits>
#include <cstring>
#include <ctime>
#include <sys/utsname.h>
#include <unistd.h>

namespace wgtrace::runtime {
namespace {

/// The process's start time as %t shows it, taken when the runtime loads
/// (before main), so that every trace of one process agrees on it.
struct StartTime {
  char Text[32] = "00000000-000000";
  StartTime() {
    std::time_t Now = std::time(nullptr);
    std::tm Local;
    if (localtime_r(&Now, &Local))
      std::strftime(Text, sizeof(Text), "%Y%m%d-%H%M%S", &Local);
  }
};
const StartTime kProcessStart;

/// Appends \p Text to [At, End); false when it does not fit.
bool append(char *&At, char *End, const char *Text, size_t Length) {
  if (size_t(End - At) <= Length)
    return false;
  for (size_t I = 0; I < Length; ++I)
    *At++ = Text[I];
  return true;
}

size_t length(const char *Text) {
  size_t N = 0;
  while (Text[N])
    ++N;
  return N;
}

/// What this process knows of its trace file (see trace_path.h). Plain
/// static storage: the crash handler reads and updates it.
struct TraceFileState {
  /// The expanded path the state is about ("" before anything is known).
  char Path[PATH_MAX] = {};
  /// Where this process wrote it last ("" before its first write).
  char Written[PATH_MAX] = {};
  /// The file that may be replaced at Written, or else at Path.
  output::FileIdentity Baseline;
};
TraceFileState FileState;

bool hasPid(const char *Pattern) {
  for (const char *P = Pattern; *P; ++P)
    if (*P == '%' && P[1]) {
      if (P[1] == 'p')
        return true;
      ++P;
    }
  return false;
}

} // namespace

void noteTraceFileAtStart(const char *Pattern) {
  TraceFileState &S = FileState;
  S = TraceFileState();
  // A path with the process id is this process's alone.
  if (!Pattern || !*Pattern || hasPid(Pattern) ||
      !expandTracePath(Pattern, S.Path, sizeof(S.Path))) {
    S.Path[0] = '\0';
    return;
  }
  S.Baseline = output::identify(S.Path);
}

const char *traceFileFor(const char *Path, output::FileIdentity &Baseline) {
  TraceFileState &S = FileState;
  if (!S.Path[0] || std::strcmp(S.Path, Path) != 0) {
    // Not known from the start (a %p path, or one set later): whatever is
    // there now may be replaced.
    Baseline = output::identify(Path);
    return Path;
  }
  Baseline = S.Baseline;
  return S.Written[0] ? S.Written : Path;
}

void noteTraceFileWritten(const char *Path, const char *Written) {
  TraceFileState &S = FileState;
  size_t PathLength = std::strlen(Path), WrittenLength = std::strlen(Written);
  if (PathLength >= sizeof(S.Path) || WrittenLength >= sizeof(S.Written))
    return;
  std::memcpy(S.Path, Path, PathLength + 1);
  std::memcpy(S.Written, Written, WrittenLength + 1);
  S.Baseline = output::identify(Written);
}

std::string tracePathProblem(std::string_view Pattern) {
  for (size_t I = 0; I < Pattern.size(); ++I) {
    if (Pattern[I] != '%')
      continue;
    if (I + 1 == Pattern.size())
      return "ends in a lone '%'; write %% for a percent sign";
    char C = Pattern[++I];
    if (C != 'p' && C != 'h' && C != 't' && C != '%')
      return std::string("has '%") + C +
             "', which is no pattern; expected %p (process id), %h (host "
             "name), %t (start time) or %% (a percent sign)";
  }
  return "";
}

bool expandTracePath(const char *Pattern, char *Out, size_t Size) {
  char *At = Out;
  char *End = Out + Size;
  for (const char *P = Pattern; *P; ++P) {
    bool Fits = true;
    if (*P != '%' || !P[1]) {
      Fits = append(At, End, P, 1);
    } else {
      switch (*++P) {
      case 'p': {
        char Digits[24];
        size_t N = 0;
        for (unsigned long Pid = static_cast<unsigned long>(::getpid());
             N == 0 || Pid; Pid /= 10)
          Digits[N++] = static_cast<char>('0' + Pid % 10);
        for (; N && Fits; --N)
          Fits = append(At, End, &Digits[N - 1], 1);
        break;
      }
      case 'h': {
        struct utsname Names;
        const char *Host = ::uname(&Names) == 0 ? Names.nodename : "unknown";
        Fits = append(At, End, Host, length(Host));
        break;
      }
      case 't':
        Fits = append(At, End, kProcessStart.Text, length(kProcessStart.Text));
        break;
      default: // '%', and anything tracePathProblem() let through as is
        Fits = append(At, End, P, 1);
        break;
      }
    }
    if (!Fits)
      return false;
  }
  if (At == End)
    return false;
  *At = '\0';
  return true;
}

} // namespace wgtrace::runtime
