//===- EditSet.cpp - Nested source edits of one file ----------------------===//

#include "EditSet.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;
using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace wgtrace {
namespace rewriter {

bool EditSet::wrap(unsigned Begin, unsigned End, StringRef Open,
                   StringRef Close, bool Stackable) {
  std::vector<size_t> &Same = WrapIndex[{Begin, End}];
  for (size_t I : Same) {
    const Wrap &W = Wraps[I];
    if (W.Open == Open && W.Close == Close)
      return true;
    if (!Stackable && !W.Stackable)
      return false;
  }
  Same.push_back(Wraps.size());
  Wraps.push_back({Begin, End, Open.str(), Close.str(),
                   static_cast<unsigned>(Wraps.size()), Stackable});
  return true;
}

void EditSet::unwrap(unsigned Begin, unsigned End, StringRef Open,
                     StringRef Close) {
  std::vector<size_t> &Same = WrapIndex[{Begin, End}];
  for (auto It = Same.begin(); It != Same.end(); ++It) {
    Wrap &W = Wraps[*It];
    if (W.Open == Open && W.Close == Close) {
      W.Removed = true;
      Same.erase(It);
      return;
    }
  }
}

void EditSet::retextWrap(unsigned Begin, unsigned End, StringRef Open,
                         StringRef Close, StringRef NewOpen,
                         StringRef NewClose) {
  for (size_t I : WrapIndex[{Begin, End}]) {
    Wrap &W = Wraps[I];
    if (W.Open == Open && W.Close == Close) {
      W.Open = NewOpen.str();
      W.Close = NewClose.str();
      return;
    }
  }
}

void EditSet::insert(unsigned Offset, StringRef Text) {
  for (const Insert &I : Inserts)
    if (I.Offset == Offset && I.Text == Text)
      return;
  Inserts.push_back(
      {Offset, Text.str(), static_cast<unsigned>(Inserts.size())});
}

bool EditSet::replace(unsigned Begin, unsigned End, StringRef Text) {
  for (const Replace &R : Replaces)
    if (R.Begin == Begin && R.End == End)
      return R.Text == Text;
  Replaces.push_back({Begin, End, Text.str()});
  return true;
}

void EditSet::unreplace(unsigned Begin, unsigned End) {
  llvm::erase_if(Replaces, [&](const Replace &R) {
    return R.Begin == Begin && R.End == End;
  });
}

void EditSet::retextReplace(unsigned Begin, unsigned End, StringRef Text) {
  for (Replace &R : Replaces)
    if (R.Begin == Begin && R.End == End)
      R.Text = Text.str();
}

const std::string *EditSet::replacement(unsigned Begin, unsigned End) const {
  for (const Replace &R : Replaces)
    if (R.Begin == Begin && R.End == End)
      return &R.Text;
  return nullptr;
}

bool EditSet::editsInside(unsigned Begin, unsigned End) const {
  auto Inside = [&](unsigned Offset) { return Begin < Offset && Offset < End; };
  for (const Wrap &W : Wraps)
    if (!W.Removed && (Inside(W.Begin) || Inside(W.End)))
      return true;
  for (const Insert &I : Inserts)
    if (Inside(I.Offset))
      return true;
  for (const Replace &R : Replaces)
    if (R.Begin < End && Begin < R.End)
      return true;
  return false;
}

std::optional<std::vector<EditSet::WrapText>>
EditSet::onlyWrapsWithin(unsigned Begin, unsigned End) const {
  std::vector<WrapText> Out;
  for (const Wrap &W : Wraps) {
    if (W.Removed || W.End <= Begin || W.Begin >= End)
      continue;
    if (W.Begin < Begin || W.End > End)
      return std::nullopt;
    Out.push_back({W.Begin, W.End, W.Open, W.Close});
  }
  for (const Insert &I : Inserts)
    if (Begin <= I.Offset && I.Offset <= End)
      return std::nullopt;
  for (const Replace &R : Replaces)
    if (R.Begin < End && Begin < R.End)
      return std::nullopt;
  return Out;
}

namespace {
/// One piece of text to insert, with the key that orders it among the
/// pieces at the same offset: closings of inner wraps, then plain
/// insertions, then openings of outer wraps before inner ones.
struct Piece {
  unsigned Offset;
  std::tuple<int, long long, unsigned> Rank;
  const std::string *Text;
};
} // namespace

std::string EditSet::replacedText(llvm::StringRef Code, unsigned Begin,
                                  unsigned End) const {
  std::vector<const Replace *> Inside;
  for (const Replace &R : Replaces)
    if (R.Begin >= Begin && R.End <= End)
      Inside.push_back(&R);
  llvm::sort(Inside, [](const Replace *A, const Replace *B) {
    return A->Begin < B->Begin;
  });
  std::string Out;
  unsigned At = Begin;
  for (const Replace *R : Inside) {
    if (R->Begin < At)
      continue;
    Out += Code.slice(At, R->Begin);
    Out += R->Text;
    At = R->End;
  }
  Out += Code.slice(At, End);
  return Out;
}

Expected<Replacements> EditSet::toReplacements() const {
  // Wraps must nest: sort outer-first and check with a stack of open ends.
  std::vector<const Wrap *> Sorted;
  Sorted.reserve(Wraps.size());
  for (const Wrap &W : Wraps)
    if (!W.Removed)
      Sorted.push_back(&W);
  llvm::sort(Sorted, [](const Wrap *A, const Wrap *B) {
    if (A->Begin != B->Begin)
      return A->Begin < B->Begin;
    if (A->End != B->End)
      return A->End > B->End;
    return A->Sequence < B->Sequence;
  });
  std::vector<const Wrap *> Open;
  for (const Wrap *W : Sorted) {
    while (!Open.empty() && Open.back()->End <= W->Begin)
      Open.pop_back();
    if (!Open.empty()) {
      const Wrap *Outer = Open.back();
      if (Outer->Begin == W->Begin && Outer->End == W->End &&
          !Outer->Stackable && !W->Stackable)
        return createStringError(
            inconvertibleErrorCode(),
            "conflicting edits at offset %u: '%s' and '%s'", W->Begin,
            Outer->Open.c_str(), W->Open.c_str());
      if (W->End > Outer->End)
        return createStringError(inconvertibleErrorCode(),
                                 "crossing edits at offsets %u and %u",
                                 Outer->Begin, W->Begin);
    }
    Open.push_back(W);
  }

  std::vector<Piece> Pieces;
  for (const Wrap *W : Sorted) {
    // Inner wraps close first: they begin later (or, on the same range,
    // were added later).
    Pieces.push_back({W->End,
                      {0, -static_cast<long long>(W->Begin), ~W->Sequence},
                      &W->Close});
    // Outer wraps open first: they end later (or were added first).
    Pieces.push_back({W->Begin,
                      {2, -static_cast<long long>(W->End), W->Sequence},
                      &W->Open});
  }
  for (const Insert &I : Inserts)
    Pieces.push_back({I.Offset, {1, 0, I.Sequence}, &I.Text});
  // A replacement's text goes after everything that opens at its start.
  for (const Replace &R : Replaces)
    Pieces.push_back({R.Begin, {3, 0, 0}, &R.Text});
  // Ranks are unique per offset, so the order is total.
  llvm::sort(Pieces, [](const Piece &A, const Piece &B) {
    return std::tie(A.Offset, A.Rank) < std::tie(B.Offset, B.Rank);
  });

  // What each replacement removes; nothing else may edit inside it.
  std::map<unsigned, unsigned> Removed;
  for (const Replace &R : Replaces) {
    auto Next = Removed.lower_bound(R.Begin);
    if ((Next != Removed.end() && Next->first < R.End) ||
        (Next != Removed.begin() && std::prev(Next)->second > R.Begin))
      return createStringError(inconvertibleErrorCode(),
                               "overlapping replacements at offset %u",
                               R.Begin);
    Removed[R.Begin] = R.End;
  }
  for (const Piece &P : Pieces) {
    auto After = Removed.upper_bound(P.Offset);
    if (After != Removed.begin() && std::prev(After)->first < P.Offset &&
        std::prev(After)->second > P.Offset)
      return createStringError(inconvertibleErrorCode(),
                               "an edit at offset %u falls inside a "
                               "replaced range",
                               P.Offset);
  }

  Replacements Result;
  for (size_t I = 0; I < Pieces.size();) {
    std::string Text;
    unsigned Offset = Pieces[I].Offset;
    for (; I < Pieces.size() && Pieces[I].Offset == Offset; ++I)
      Text += *Pieces[I].Text;
    auto R = Removed.find(Offset);
    unsigned Length = R == Removed.end() ? 0 : R->second - R->first;
    if (Text.empty() && Length == 0)
      continue;
    if (Error E = Result.add(Replacement(FilePath, Offset, Length, Text)))
      return E;
  }
  return Result;
}

} // namespace rewriter
} // namespace wgtrace
