//===- wgtrace/detail/string.h - std::string members that record ----------===//
//
// The members of a std::basic_string that copy characters into it (append,
// +=, push_back, assign, =, insert, replace, resize) or out of it (copy), or
// read
// them to compare (compare), do so in library code that wgtrace-rewrite
// cannot rewrite. The rewriter sends such a call on a string whose
// characters are kernel memory, `s.append(t)`, to
// `::wgtrace::detail::recorded::string<'-'>(site, s).append(t)`: the member
// runs as written, and then the loads and stores libstdc++ made in it are
// recorded, in its order, with the access site of the call. They follow
// from the string before the call (its storage, length, capacity) and
// after it (its storage, new when it grew), as libstdc++ 12's
// basic_string.tcc writes the members, for char_traits over a character
// type:
//
//   - every change of length ends with the store of the terminating null
//     character (_M_set_length);
//   - characters come in as block copies, _S_copy and _S_move (one
//     character: a load and a store; more: memcpy and memmove, a load and a
//     store per character, forward, or from the last one back when the
//     destination overlaps the source above it), and as fills, _S_assign
//     (memset: a store per character; the character is a value);
//   - a change that does not fit the capacity (_M_mutate) allocates new
//     storage and copies into it the characters before the change, the new
//     ones, then those after it; one that fits first moves the characters
//     after the change to their place, then copies the new ones in
//     (_M_replace, including its in-place path for a source inside the
//     string, _M_replace_cold);
//   - compare reads both strings a character of each at a time up to the
//     first difference (memcmp).
//
// Every access goes through referencedAccess: the characters of a string
// that is a local of the kernel (a short one, held in the object) or of a
// temporary are not kernel memory. The template arguments are the roles
// of the call's pointer arguments: 'M' characters of kernel memory, '-'
// anything else (a string literal). A string given as a source is read as
// memory whatever its role (a local one's characters are dropped above).
//
// Included by <wgtrace/algorithms.h>; not meant to be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_STRING_H
#define WGTRACE_DETAIL_STRING_H

#include "wgtrace/detail/thread_state.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace wgtrace::detail::recorded {
inline namespace WGTRACE_DETAIL_ACCESSES {

/// A std::basic_string whose characters are kernel memory, with the roles
/// of the member's arguments.
template <class S, char... Roles> class StringMembers {
  using C = typename S::value_type;
  using Size = typename S::size_type;

public:
  StringMembers(uint64_t SiteBits, S &String)
      : SiteBits(SiteBits), String(&String), Before(String.data()),
        Length(String.size()), Capacity(String.capacity()) {}

  /// `p->append(t)` on a pointer to the string.
  StringMembers *operator->() { return this; }

  S &append(const S &From) {
    const C *Source = From.data();
    Size Count = From.size();
    String->append(From);
    appended(Source, Count, true);
    return *String;
  }
  S &append(const S &From, Size Pos, Size Count = S::npos) {
    const C *Source = From.data() + std::min(Pos, From.size());
    Count = std::min(Count, From.size() - std::min(Pos, From.size()));
    String->append(From, Pos, Count);
    appended(Source, Count, true);
    return *String;
  }
  S &append(const C *From, Size Count) {
    String->append(From, Count);
    appended(From, Count, role<0>());
    return *String;
  }
  S &append(const C *From) {
    Size Count = S::traits_type::length(From);
    String->append(From);
    appended(From, Count, role<0>());
    return *String;
  }
  S &append(Size Count, C Char) {
    String->append(Count, Char);
    filled(Length, 0, Count);
    return *String;
  }
  S &operator+=(const S &From) { return append(From); }
  S &operator+=(const C *From) { return append(From); }
  S &operator+=(C Char) {
    push_back(Char);
    return *String;
  }
  void push_back(C Char) {
    String->push_back(Char);
    if (Length + 1 > Capacity)
      mutated(Length, 0, nullptr, 1, false);
    store(data() + Length);
    terminated();
  }

  S &assign(const S &From) {
    const C *Source = From.data();
    Size Count = From.size();
    bool Self = &From == String;
    String->assign(From);
    if (!Self) {
      block(data(), Source, Count, true);
      terminated();
    }
    return *String;
  }
  S &assign(const S &From, Size Pos, Size Count = S::npos) {
    const C *Source = From.data() + std::min(Pos, From.size());
    Count = std::min(Count, From.size() - std::min(Pos, From.size()));
    String->assign(From, Pos, Count);
    replaced(0, Length, Source, Count, true);
    return *String;
  }
  S &assign(const C *From, Size Count) {
    String->assign(From, Count);
    replaced(0, Length, From, Count, role<0>());
    return *String;
  }
  S &assign(const C *From) {
    Size Count = S::traits_type::length(From);
    String->assign(From);
    replaced(0, Length, From, Count, role<0>());
    return *String;
  }
  S &assign(Size Count, C Char) {
    String->assign(Count, Char);
    filled(0, Length, Count);
    return *String;
  }
  S &operator=(const S &From) { return assign(From); }
  S &operator=(const C *From) { return assign(From); }
  S &operator=(C Char) { return assign(1, Char); }

  void resize(Size Count, C Char = C()) {
    String->resize(Count, Char);
    if (Count > Length)
      filled(Length, 0, Count - Length);
    else if (Count < Length)
      terminated();
  }

  S &insert(Size Pos, const S &From) {
    return replace(Pos, 0, From.data(), From.size(), true);
  }
  S &insert(Size Pos, const C *From, Size Count) {
    return replace(Pos, 0, From, Count, role<1>());
  }
  S &insert(Size Pos, const C *From) {
    return replace(Pos, 0, From, S::traits_type::length(From), role<1>());
  }
  S &insert(Size Pos, Size Count, C Char) {
    String->insert(Pos, Count, Char);
    filled(Pos, 0, Count);
    return *String;
  }
  typename S::iterator insert(typename S::const_iterator At, C Char) {
    Size Pos = Size(At - String->cbegin());
    auto Result = String->insert(At, Char);
    filled(Pos, 0, 1);
    return Result;
  }
  typename S::iterator insert(typename S::const_iterator At, Size Count,
                              C Char) {
    Size Pos = Size(At - String->cbegin());
    auto Result = String->insert(At, Count, Char);
    filled(Pos, 0, Count);
    return Result;
  }

  S &replace(Size Pos, Size Count, const S &From) {
    return replace(Pos, Count, From.data(), From.size(), true);
  }
  S &replace(Size Pos, Size Count, const C *From, Size FromCount) {
    return replace(Pos, Count, From, FromCount, role<2>());
  }
  S &replace(Size Pos, Size Count, const C *From) {
    return replace(Pos, Count, From, S::traits_type::length(From), role<2>());
  }
  S &replace(Size Pos, Size Count, Size FillCount, C Char) {
    String->replace(Pos, Count, FillCount, Char);
    filled(Pos, limit(Pos, Count), FillCount);
    return *String;
  }

  Size copy(C *Into, Size Count, Size Pos = 0) const {
    Size Copied = String->copy(Into, Count, Pos);
    block(Into, Before + Pos, Copied, true);
    return Copied;
  }

  int compare(const S &With) const {
    int Result = String->compare(With);
    Size Common = std::min(Length, With.size());
    const C *A = Before, *B = With.data();
    for (Size I = 0; I < Common; ++I) {
      load(A + I);
      load(B + I);
      if (!S::traits_type::eq(A[I], B[I]))
        break;
    }
    return Result;
  }

private:
  template <size_t I> static constexpr bool role() {
    constexpr char Chars[] = {Roles..., '-', '-', '-', '-'};
    return Chars[I] == 'M';
  }

  C *data() const { return String->data(); }
  Size limit(Size Pos, Size Count) const {
    return Count < Length - Pos ? Count : Length - Pos;
  }

  void load(const C *P) const {
    referencedAccess(false, P, sizeof(C), SiteBits);
  }
  void store(const C *P) const {
    referencedAccess(true, P, sizeof(C), SiteBits);
  }
  /// _S_copy and _S_move: memcpy and memmove of Count characters, a load
  /// and a store each, from the last one back when the destination
  /// overlaps the source above it. A source that is not kernel memory
  /// (Memory false) has its loads left out.
  void block(const C *Into, const C *From, Size Count, bool Memory) const {
    if (Into > From && Into < From + Count) {
      for (Size I = Count; I-- > 0;) {
        if (Memory)
          load(From + I);
        store(Into + I);
      }
      return;
    }
    for (Size I = 0; I < Count; ++I) {
      if (Memory)
        load(From + I);
      store(Into + I);
    }
  }
  /// _M_set_length: the terminating null character.
  void terminated() const { store(data() + String->size()); }

  /// _M_mutate: new storage holding the characters before Pos, Count new
  /// ones from From (none when From is null) and those after the Removed
  /// ones.
  void mutated(Size Pos, Size Removed, const C *From, Size Count,
               bool Memory) const {
    C *Into = data();
    Size After = Length - Pos - Removed;
    if (Pos)
      block(Into, Before, Pos, true);
    if (From && Count)
      block(Into + Pos, From, Count, Memory);
    if (After)
      block(Into + Pos + Count, Before + Pos + Removed, After, true);
  }

  /// _M_append.
  void appended(const C *From, Size Count, bool Memory) const {
    if (Length + Count <= Capacity) {
      if (Count)
        block(data() + Length, From, Count, Memory);
    } else {
      mutated(Length, 0, From, Count, Memory);
    }
    terminated();
  }

  /// replace(Pos, Removed, From, Count) through _M_replace.
  S &replace(Size Pos, Size Removed, const C *From, Size Count, bool Memory) {
    Removed = limit(std::min(Pos, Length), Removed);
    String->replace(Pos, Removed, From, Count);
    replaced(Pos, Removed, From, Count, Memory);
    return *String;
  }
  void replaced(Size Pos, Size Removed, const C *From, Size Count,
                bool Memory) const {
    Size NewLength = Length + Count - Removed;
    if (NewLength > Capacity) {
      mutated(Pos, Removed, From, Count, Memory);
      terminated();
      return;
    }
    const C *At = Before + Pos;
    Size After = Length - Pos - Removed;
    if (From < Before || Before + Length < From) {
      if (After && Removed != Count)
        block(At + Count, At + Removed, After, true);
      if (Count)
        block(At, From, Count, Memory);
    } else {
      // _M_replace_cold: the source is inside the string.
      if (Count && Count <= Removed)
        block(At, From, Count, true);
      if (After && Removed != Count)
        block(At + Count, At + Removed, After, true);
      if (Count > Removed) {
        if (From + Count <= At + Removed) {
          block(At, From, Count, true);
        } else if (From >= At + Removed) {
          block(At, At + (From - At) + (Count - Removed), Count, true);
        } else {
          Size Left = Size((At + Removed) - From);
          block(At, From, Left, true);
          block(At + Left, At + Count, Count - Left, true);
        }
      }
    }
    terminated();
  }

  /// _M_replace_aux: Count copies of a character (a value) in place of
  /// the Removed ones at Pos.
  void filled(Size Pos, Size Removed, Size Count) const {
    Size NewLength = Length + Count - Removed;
    if (NewLength <= Capacity) {
      Size After = Length - Pos - Removed;
      if (After && Removed != Count)
        block(Before + Pos + Count, Before + Pos + Removed, After, true);
    } else {
      mutated(Pos, Removed, nullptr, Count, false);
    }
    for (Size I = 0; I < Count; ++I)
      store(data() + Pos + I);
    terminated();
  }

  uint64_t SiteBits;
  S *String;
  const C *Before;
  Size Length;
  Size Capacity;
};

template <char... Roles, class S>
StringMembers<S, Roles...> string(uint64_t SiteBits, S &String) {
  return StringMembers<S, Roles...>(SiteBits, String);
}
template <char... Roles, class S>
StringMembers<S, Roles...> string(uint64_t SiteBits, S *String) {
  return StringMembers<S, Roles...>(SiteBits, *String);
}

} // namespace WGTRACE_DETAIL_ACCESSES
} // namespace wgtrace::detail::recorded

#endif // WGTRACE_DETAIL_STRING_H
