//===- SourceText.cc ------------------------------------------------------===//

#include "output/SourceText.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

using namespace llvm;

namespace wgtrace::viewer {

const char *sourceOriginName(SourceOrigin O) {
  switch (O) {
  case SourceOrigin::Disk:
    return "disk";
  case SourceOrigin::MetadataCopy:
    return "metadata";
  case SourceOrigin::None:
    break;
  }
  return "none";
}

/// \p Text split into lines, without their line ends.
static std::vector<std::string> splitLines(StringRef Text) {
  SmallVector<StringRef, 64> Parts;
  Text.split(Parts, '\n');
  // A final line end does not start another line.
  if (!Parts.empty() && Parts.back().empty() && Text.ends_with("\n"))
    Parts.pop_back();
  std::vector<std::string> Out;
  Out.reserve(Parts.size());
  for (StringRef P : Parts)
    Out.push_back(P.rtrim("\r").str());
  return Out;
}

/// What the rewriter makes of an expression's text: one line, runs of
/// white space one space, none at either end.
static std::string oneLine(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    bool Space = isSpace(C);
    if (Space && (Out.empty() || Out.back() == ' '))
      continue;
    Out += Space ? ' ' : C;
  }
  while (!Out.empty() && Out.back() == ' ')
    Out.pop_back();
  return Out;
}

/// Whether \p Lines (the file) spell \p E's text at its place.
static bool spells(const std::vector<std::string> &Lines,
                   const SourceEvidence::Expression &E) {
  if (E.Line == 0 || E.Line > Lines.size())
    return false;
  StringRef Want = E.Text;
  // The rewriter cut long texts to 77 characters and "...".
  Want.consume_back("...");
  StringRef First = Lines[E.Line - 1];
  if (E.Column > First.size() + 1)
    return false;
  std::string Have(First.drop_front(E.Column ? E.Column - 1 : 0));
  // An expression may go on over the next lines.
  for (size_t L = E.Line; L < Lines.size() && Have.size() < Want.size() * 2 + 8;
       ++L)
    Have += "\n" + Lines[L];
  return StringRef(oneLine(Have)).starts_with(Want);
}

/// The unqualified name a definition spells: "ns::scale_k<float>" ->
/// "scale_k".
static StringRef shortName(StringRef Name) {
  size_t Colon = Name.rfind("::");
  if (Colon != StringRef::npos)
    Name = Name.drop_front(Colon + 2);
  return Name.take_until([](char C) { return C == '<' || C == ' '; });
}

uint32_t copyFirstLine(const SourceEvidence::KernelCopy &Copy) {
  std::vector<std::string> Lines = splitLines(Copy.Text);
  StringRef Name = shortName(Copy.Name);
  uint32_t Before = 0;
  if (!Name.empty())
    for (uint32_t I = 0; I < Lines.size() && I + 1 < Copy.Line; ++I) {
      StringRef L = Lines[I];
      size_t At = L.find(Name);
      if (At == StringRef::npos)
        continue;
      StringRef After = L.drop_front(At + Name.size()).ltrim();
      if (After.empty() || After.starts_with("(") || After.starts_with("<")) {
        Before = I;
        break;
      }
    }
  return Copy.Line > Before ? Copy.Line - Before : 1;
}

/// The first line where \p File differs from \p Copy placed at \p First, or
/// 0 when it holds the copy. The copy's first line may begin inside the
/// file's line and its last end inside one.
static uint32_t differsFrom(const std::vector<std::string> &File,
                            const std::vector<std::string> &Copy,
                            uint32_t First) {
  for (uint32_t I = 0; I < Copy.size(); ++I) {
    uint32_t Line = First + I;
    if (Line > File.size())
      return Line;
    StringRef Have = StringRef(File[Line - 1]).rtrim();
    StringRef Want = StringRef(Copy[I]).rtrim();
    bool Same = Copy.size() == 1       ? Have.contains(Want)
                : I == 0               ? Have.ends_with(Want)
                : I + 1 == Copy.size() ? Have.starts_with(Want)
                                       : Have == Want;
    if (!Same)
      return Line;
  }
  return 0;
}

/// Why \p Disk (a file's lines) is not what \p Evidence recorded, or ""
/// when it is.
static std::string mismatch(const std::vector<std::string> &Disk,
                            const SourceEvidence &Evidence) {
  for (const SourceEvidence::KernelCopy &K : Evidence.Kernels)
    if (uint32_t Line = differsFrom(Disk, splitLines(K.Text), copyFirstLine(K)))
      return fmt::format("changed since the trace (line {} differs from the "
                         "metadata's copy of {})",
                         Line, K.Name);
  for (const SourceEvidence::Expression &E : Evidence.Expressions)
    if (!spells(Disk, E))
      return fmt::format("changed since the trace (line {} does not hold "
                         "'{}')",
                         E.Line, E.Text);
  return {};
}

/// Where a file recorded as \p Path may be: there, then in each of \p Dirs
/// its path (relative) and the shorter and shorter tails of it.
static std::vector<std::string> candidates(StringRef Path,
                                           ArrayRef<std::string> Dirs) {
  std::vector<std::string> Out = {Path.str()};
  SmallVector<StringRef, 8> Parts;
  for (auto It = sys::path::begin(Path), End = sys::path::end(Path); It != End;
       ++It)
    if (!sys::path::is_separator((*It)[0]) && *It != ".")
      Parts.push_back(*It);
  for (const std::string &Dir : Dirs)
    for (size_t First = 0; First < Parts.size(); ++First) {
      SmallString<256> P(Dir);
      for (size_t I = First; I < Parts.size(); ++I)
        sys::path::append(P, Parts[I]);
      Out.push_back(std::string(P));
    }
  return Out;
}

SourceText SourceText::load(StringRef Path, const SourceEvidence &Evidence,
                            ArrayRef<std::string> SourceDirs) {
  SourceText Out;
  std::vector<std::string> Disk;
  if (Path.empty()) {
    Out.Reason = "without a name";
  } else {
    // The first candidate that matches; else why the first one there did
    // not (the recorded path's reason said as before).
    std::string Found;
    for (const std::string &Candidate : candidates(Path, SourceDirs)) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> File =
          MemoryBuffer::getFile(Candidate, /*IsText=*/true);
      std::string Why;
      std::vector<std::string> Lines;
      if (!File) {
        if (File.getError() == std::errc::no_such_file_or_directory)
          continue;
        Why = "unreadable (" + File.getError().message() + ")";
      } else {
        Lines = splitLines((*File)->getBuffer());
        Why = mismatch(Lines, Evidence);
      }
      if (Why.empty()) {
        Disk = std::move(Lines);
        Out.Path = Candidate;
        Found.clear();
        break;
      }
      if (Found.empty())
        Found = Candidate == Path ? Why : (Candidate + ": ").append(Why);
    }
    if (Out.Path.empty())
      Out.Reason = !Found.empty()       ? Found
                   : SourceDirs.empty() ? "not found on disk"
                                        : "not found on disk nor in "
                                          "--source-dir";
  }
  if (Out.Reason.empty()) {
    Out.Origin = SourceOrigin::Disk;
    for (uint32_t I = 0; I < Disk.size(); ++I)
      Out.Lines.emplace(I + 1, std::move(Disk[I]));
    return Out;
  }
  for (const SourceEvidence::KernelCopy &K : Evidence.Kernels) {
    uint32_t First = copyFirstLine(K);
    std::vector<std::string> Copy = splitLines(K.Text);
    for (uint32_t I = 0; I < Copy.size(); ++I)
      Out.Lines.emplace(First + I, std::move(Copy[I]));
  }
  Out.Origin =
      Out.Lines.empty() ? SourceOrigin::None : SourceOrigin::MetadataCopy;
  return Out;
}

std::optional<StringRef> SourceText::line(uint32_t Line) const {
  auto It = Lines.find(Line);
  if (It == Lines.end())
    return std::nullopt;
  return StringRef(It->second);
}

} // namespace wgtrace::viewer
