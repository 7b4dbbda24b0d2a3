//===- OutputWriter.cpp - Where rewritten files go ------------------------===//

#include "OutputWriter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <vector>

using namespace llvm;

namespace wgtrace {
namespace rewriter {

Error writeFileAtomically(StringRef Path, StringRef Text) {
  StringRef Dir = sys::path::parent_path(Path);
  if (!Dir.empty())
    if (std::error_code EC = sys::fs::create_directories(Dir))
      return createFileError(Dir, EC);

  SmallString<256> Model(Path);
  Model += ".wgtrace-tmp-%%%%%%";
  int FD;
  SmallString<256> TempPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, TempPath))
    return createFileError(Model, EC);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      (void)sys::fs::remove(TempPath);
      return createFileError(TempPath, EC);
    }
  }
  // A rewritten source keeps the mode of the file it replaces (best effort).
  if (ErrorOr<sys::fs::perms> Perms = sys::fs::getPermissions(Path))
    (void)sys::fs::setPermissions(TempPath, *Perms);
  else
    // perms is a bit mask: 0644 is no one enumerator's value.
    // NOLINTNEXTLINE(clang-analyzer-optin.core.EnumCastOutOfRange)
    (void)sys::fs::setPermissions(TempPath, sys::fs::perms(0644));
  if (std::error_code EC = sys::fs::rename(TempPath, Path)) {
    (void)sys::fs::remove(TempPath);
    return createFileError(Path, EC);
  }
  return Error::success();
}

std::string commonDirectory(ArrayRef<std::string> Paths) {
  if (Paths.empty())
    return "";
  SmallVector<StringRef, 16> Common;
  StringRef First = sys::path::parent_path(Paths.front());
  for (auto I = sys::path::begin(First), E = sys::path::end(First); I != E; ++I)
    Common.push_back(*I);
  for (const std::string &P : Paths.drop_front()) {
    StringRef Dir = sys::path::parent_path(P);
    size_t N = 0;
    for (auto I = sys::path::begin(Dir), E = sys::path::end(Dir);
         I != E && N < Common.size() && *I == Common[N]; ++I)
      ++N;
    Common.resize(N);
  }
  SmallString<256> Out;
  for (StringRef C : Common)
    sys::path::append(Out, C);
  return std::string(Out);
}

Expected<std::string> mirroredPath(StringRef OutputDir, StringRef Root,
                                   StringRef Input) {
  SmallString<256> Relative(Input);
  if (!sys::path::replace_path_prefix(Relative, Root, ""))
    return createStringError(inconvertibleErrorCode(),
                             "%s is not below the root directory %s",
                             Input.str().c_str(), Root.str().c_str());
  StringRef Rest = sys::path::relative_path(Relative);
  if (Rest.empty())
    Rest = Relative;
  Rest = Rest.ltrim("/");
  SmallString<256> Out(OutputDir);
  sys::path::append(Out, Rest);
  return std::string(Out);
}

/// Splits into lines, each with its newline.
static std::vector<StringRef> splitLines(StringRef Text) {
  std::vector<StringRef> Lines;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    End = End == StringRef::npos ? Text.size() : End + 1;
    Lines.push_back(Text.take_front(End));
    Text = Text.drop_front(End);
  }
  return Lines;
}

std::string unifiedDiff(StringRef Path, StringRef Before, StringRef After) {
  std::vector<StringRef> A = splitLines(Before), B = splitLines(After);
  // Only the part between the common prefix and suffix is compared.
  size_t Prefix = 0;
  while (Prefix < A.size() && Prefix < B.size() && A[Prefix] == B[Prefix])
    ++Prefix;
  size_t Suffix = 0;
  while (Suffix < A.size() - Prefix && Suffix < B.size() - Prefix &&
         A[A.size() - 1 - Suffix] == B[B.size() - 1 - Suffix])
    ++Suffix;
  size_t N = A.size() - Prefix - Suffix, M = B.size() - Prefix - Suffix;
  if (N == 0 && M == 0)
    return "";

  // The edit script over the whole files: ' ', '-' or '+' per line.
  struct Op {
    char Kind;
    StringRef Line;
  };
  std::vector<Op> Ops;
  Ops.reserve(Prefix + N + M + Suffix);
  for (size_t I = 0; I < Prefix; ++I)
    Ops.push_back({' ', A[I]});
  if (N * M <= (1u << 22)) {
    // Longest common subsequence of the differing middle part.
    std::vector<std::vector<unsigned>> L(N + 1, std::vector<unsigned>(M + 1));
    for (size_t I = N; I-- > 0;)
      for (size_t J = M; J-- > 0;)
        L[I][J] = A[Prefix + I] == B[Prefix + J]
                      ? L[I + 1][J + 1] + 1
                      : std::max(L[I + 1][J], L[I][J + 1]);
    size_t I = 0, J = 0;
    while (I < N || J < M) {
      if (I < N && J < M && A[Prefix + I] == B[Prefix + J]) {
        Ops.push_back({' ', A[Prefix + I]});
        ++I, ++J;
      } else if (I < N && (J == M || L[I + 1][J] >= L[I][J + 1])) {
        // Removed lines first, as diff(1) prints them.
        Ops.push_back({'-', A[Prefix + I++]});
      } else {
        Ops.push_back({'+', B[Prefix + J++]});
      }
    }
  } else {
    // Too large for the table. The rewriter inserts lines only at the top
    // and keeps every other line in place, so align the ends of the middle
    // parts and compare line by line.
    size_t Extra = M > N ? M - N : 0, Missing = N > M ? N - M : 0;
    for (size_t J = 0; J < Extra; ++J)
      Ops.push_back({'+', B[Prefix + J]});
    for (size_t I = 0; I < Missing; ++I)
      Ops.push_back({'-', A[Prefix + I]});
    for (size_t I = Missing, J = Extra; I < N; ++I, ++J) {
      if (A[Prefix + I] == B[Prefix + J]) {
        Ops.push_back({' ', A[Prefix + I]});
      } else {
        Ops.push_back({'-', A[Prefix + I]});
        Ops.push_back({'+', B[Prefix + J]});
      }
    }
  }
  for (size_t K = A.size() - Suffix; K < A.size(); ++K)
    Ops.push_back({' ', A[K]});

  std::string Out;
  raw_string_ostream OS(Out);
  OS << "--- " << Path << "\n+++ " << Path << "\n";
  const size_t Context = 3;
  size_t K = 0;
  while (K < Ops.size()) {
    if (Ops[K].Kind == ' ') {
      ++K;
      continue;
    }
    // A hunk: from Context lines before this change to Context lines after
    // the last change that is at most 2 * Context lines from the previous.
    size_t Start = K > Context ? K - Context : 0;
    size_t End = K;
    for (size_t Gap = 0; End < Ops.size(); ++End) {
      if (Ops[End].Kind != ' ')
        Gap = 0;
      else if (++Gap > 2 * Context)
        break;
    }
    size_t Last = End;
    while (Last > K && Ops[Last - 1].Kind == ' ')
      --Last;
    End = std::min(Ops.size(), Last + Context);
    size_t OldStart = 0, NewStart = 0;
    for (size_t X = 0; X < Start; ++X) {
      OldStart += Ops[X].Kind != '+';
      NewStart += Ops[X].Kind != '-';
    }
    size_t OldCount = 0, NewCount = 0;
    for (size_t X = Start; X < End; ++X) {
      OldCount += Ops[X].Kind != '+';
      NewCount += Ops[X].Kind != '-';
    }
    OS << "@@ -" << (OldCount ? OldStart + 1 : OldStart) << "," << OldCount
       << " +" << (NewCount ? NewStart + 1 : NewStart) << "," << NewCount
       << " @@\n";
    for (size_t X = Start; X < End; ++X) {
      OS << Ops[X].Kind << Ops[X].Line;
      if (!Ops[X].Line.ends_with("\n"))
        OS << "\n\\ No newline at end of file\n";
    }
    K = End;
  }
  return Out;
}

} // namespace rewriter
} // namespace wgtrace
