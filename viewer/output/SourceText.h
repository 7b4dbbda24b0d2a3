//===- SourceText.h - Source lines for annotated listings -------*- C++ -*-===//
//
// An annotated listing (cg_annotate's, `wgtrace-view annotate`) shows the
// source as it was when the trace was made. The file on disk is used when
// it still holds what the trace recorded: every access site's expression
// text at its line and column, and every kernel's copy (the metadata keeps
// each kernel's definition) at its lines. Otherwise the kernels' copies
// give the lines they cover, and the listing says why the file was not
// used (not found, or changed since the trace).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_SOURCETEXT_H
#define WGTRACE_VIEWER_SOURCETEXT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::viewer {

/// Where the lines of a listed file come from.
enum class SourceOrigin : uint8_t {
  /// The file on disk, which matches the trace.
  Disk,
  /// The metadata's copy of the kernels defined in the file (only the
  /// lines of their definitions).
  MetadataCopy,
  /// Neither: only counts (and the accesses' own text) can be shown.
  None,
};

/// "disk", "metadata", "none": the JSON spelling.
const char *sourceOriginName(SourceOrigin O);

/// What the trace says a file held: expressions at places, and copies of
/// kernel definitions.
struct SourceEvidence {
  struct Expression {
    uint32_t Line = 0;
    uint32_t Column = 0;
    /// On one line, runs of white space as one space, perhaps cut with
    /// "..." (the rewriter's access-site text).
    std::string Text;
  };
  struct KernelCopy {
    /// The kernel's name, which its definition's first lines spell.
    std::string Name;
    /// Where the kernel is defined (its name's line).
    uint32_t Line = 0;
    /// The definition's text as the metadata holds it.
    std::string Text;
  };
  std::vector<Expression> Expressions;
  std::vector<KernelCopy> Kernels;
};

/// The lines of one file as a listing shows them.
class SourceText {
public:
  /// Reads \p Path (relative paths from the current directory) and checks
  /// it against \p Evidence. When it is not there or not what the trace
  /// recorded, looks in each of \p SourceDirs (`--source-dir`, as
  /// cg_annotate's -I) for the path, then for shorter and shorter tails of
  /// it (a tree that moved: /old/src/k.cc as DIR/src/k.cc, then DIR/k.cc),
  /// and takes the first file that matches.
  static SourceText load(llvm::StringRef Path, const SourceEvidence &Evidence,
                         llvm::ArrayRef<std::string> SourceDirs = {});

  SourceOrigin origin() const { return Origin; }
  /// Why the file on disk was not used ("" when it was): "not found",
  /// "changed since the trace: line 12 differs".
  const std::string &reason() const { return Reason; }
  /// The file read, when the origin is Disk (the recorded path, or where
  /// --source-dir found it).
  const std::string &path() const { return Path; }
  /// The text of line \p Line (1-based), or none.
  std::optional<llvm::StringRef> line(uint32_t Line) const;
  /// The last line the text covers (0 when none).
  uint32_t lastLine() const {
    return Lines.empty() ? 0 : Lines.rbegin()->first;
  }

private:
  SourceOrigin Origin = SourceOrigin::None;
  std::string Reason;
  std::string Path;
  std::map<uint32_t, std::string> Lines;
};

/// Where a kernel copy's first line falls in its file: the definition
/// begins before the name's line by the attributes and template heads the
/// copy holds before the line that spells \p Name.
uint32_t copyFirstLine(const SourceEvidence::KernelCopy &Copy);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_SOURCETEXT_H
