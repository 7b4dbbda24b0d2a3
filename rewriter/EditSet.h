//===- EditSet.h - Nested source edits of one file --------------*- C++ -*-===//
//
// The rewriter wraps expressions inside expressions (`a[b[i]]` becomes
// `WGTRACE_LOAD(a[WGTRACE_LOAD(b[i])])`), so several insertions often fall
// on the same offset and their order matters: the outer wrap must open first
// and close last. tooling::Replacements refuses two different insertions at
// one offset, rightly, because it cannot know their order. EditSet knows the
// nesting, orders the pieces, checks that no two wraps cross, and hands the
// result to tooling::Replacements, which still checks everything else.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_EDITSET_H
#define WGTRACE_REWRITER_EDITSET_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wgtrace {
namespace rewriter {

class EditSet {
public:
  explicit EditSet(llvm::StringRef FilePath) : FilePath(FilePath) {}

  /// Surrounds the text [Begin, End) with Open and Close. Wrapping the same
  /// range twice with the same text is a no-op (template instantiations
  /// report the same access again). Returns false, and changes nothing, if
  /// the range already has a different wrap (a macro argument expanded into
  /// a load in one place and a store in another), unless one of the two is
  /// Stackable: a stackable wrap may share its range with others, the one
  /// added first being the outermost.
  bool wrap(unsigned Begin, unsigned End, llvm::StringRef Open,
            llvm::StringRef Close, bool Stackable = false);

  /// Removes the wrap of [Begin, End) with exactly Open and Close, if any.
  void unwrap(unsigned Begin, unsigned End, llvm::StringRef Open,
              llvm::StringRef Close);

  /// Changes the text of the wrap of [Begin, End) with exactly Open and
  /// Close (an access site renumbered).
  void retextWrap(unsigned Begin, unsigned End, llvm::StringRef Open,
                  llvm::StringRef Close, llvm::StringRef NewOpen,
                  llvm::StringRef NewClose);

  /// Inserts Text at Offset, before any wrap that opens there.
  void insert(unsigned Offset, llvm::StringRef Text);

  /// Replaces the text [Begin, End) (a callee's name) with Text. No other
  /// edit may fall strictly inside the range. Returns false if another
  /// replacement of the same range differs.
  bool replace(unsigned Begin, unsigned End, llvm::StringRef Text);
  /// Drops the replacement of [Begin, End), if any.
  void unreplace(unsigned Begin, unsigned End);
  /// Changes the text of the replacement of [Begin, End), if any.
  void retextReplace(unsigned Begin, unsigned End, llvm::StringRef Text);
  /// The text of the replacement of [Begin, End), or null if none.
  const std::string *replacement(unsigned Begin, unsigned End) const;

  /// Code's text [Begin, End) with the replacements that lie inside it
  /// made (a member's copy names `n` as `self.n`: MemberCopy.h), wraps and
  /// insertions left out.
  std::string replacedText(llvm::StringRef Code, unsigned Begin,
                           unsigned End) const;

  /// Whether an edit falls inside [Begin, End) or crosses its ends; a wrap
  /// of exactly that text, or text inserted at either end, does not.
  bool editsInside(unsigned Begin, unsigned End) const;

  /// A wrap as a later pass reads it (ReservedStatements.h).
  struct WrapText {
    unsigned Begin;
    unsigned End;
    std::string Open;
    std::string Close;
  };
  /// The wraps inside [Begin, End) in the order they were made, if they
  /// are the only edits there: nothing when text is inserted at Begin or
  /// inside the range, a replacement overlaps it or a wrap crosses its
  /// ends.
  std::optional<std::vector<WrapText>> onlyWrapsWithin(unsigned Begin,
                                                       unsigned End) const;

  bool empty() const {
    return Wraps.empty() && Inserts.empty() && Replaces.empty();
  }

  /// Orders the pieces and builds the replacements. Fails if two wraps
  /// cross or the same range got two different wraps.
  llvm::Expected<clang::tooling::Replacements> toReplacements() const;

private:
  struct Wrap {
    unsigned Begin;
    unsigned End;
    std::string Open;
    std::string Close;
    unsigned Sequence;
    bool Stackable;
    /// Taken back (unwrap): no text, no conflict.
    bool Removed = false;
  };
  struct Insert {
    unsigned Offset;
    std::string Text;
    unsigned Sequence;
  };

  struct Replace {
    unsigned Begin;
    unsigned End;
    std::string Text;
  };

  std::string FilePath;
  std::vector<Replace> Replaces;
  std::vector<Wrap> Wraps;
  std::map<std::pair<unsigned, unsigned>, std::vector<size_t>> WrapIndex;
  std::vector<Insert> Inserts;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_EDITSET_H
