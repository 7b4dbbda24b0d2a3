//===- buffer_value_list.h - The buffer VALUEs of running invocations -----===//
//
// Every workgroup prologue keeps its buffer VALUEs (and an OpenMP
// iteration its Launch VALUE) for the copies of its record, and its
// epilogue drops them: a few values a workgroup, kept and dropped at the
// rate workgroups run. std::vector's push_back built each value on the
// stack and checked the room each time, about 25 instructions a value in
// an OpenMP iteration whose body is one element; here a prologue asks for
// room for all of its values once and stores them in place.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_BUFFER_VALUE_LIST_H
#define WGTRACE_RUNTIME_BUFFER_VALUE_LIST_H

#include "wgtrace/detail/thread_state.h"
#include "wgtrace/format.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace wgtrace::runtime {

/// A buffer parameter's VALUE record of a running invocation, repeated
/// after every copy of its WORKGROUP record.
struct BufferValue {
  format::ValueType Type;
  uint8_t Ordinal;
  uint64_t Bits;
};

/// The buffer VALUEs of a ring's running invocations, innermost last.
class BufferValueList {
public:
  BufferValueList() = default;
  ~BufferValueList() { delete[] Items; }
  BufferValueList(const BufferValueList &) = delete;
  BufferValueList &operator=(const BufferValueList &) = delete;

  size_t size() const { return Size; }
  const BufferValue &operator[](size_t I) const { return Items[I]; }

  /// Room for \p Count more values after the last: where they go. They
  /// are the list's once end() says where they end.
  BufferValue *room(size_t Count) {
    if (WGTRACE_UNLIKELY(Capacity - Size < Count))
      grow(Size + Count);
    return Items + Size;
  }
  /// The values end at \p End (within what room() gave).
  void end(const BufferValue *End) { Size = size_t(End - Items); }

  void append(const BufferValue &Value) {
    BufferValue *At = room(1);
    *At = Value;
    end(At + 1);
  }
  /// Drops the values from \p NewSize on.
  void truncate(size_t NewSize) { Size = std::min(Size, NewSize); }
  /// Drops value \p I; the ones after it move up.
  void erase(size_t I) {
    std::memmove(Items + I, Items + I + 1,
                 (Size - I - 1) * sizeof(BufferValue));
    --Size;
  }

private:
  /// Out of memory is std::terminate from the record functions, which are
  /// noexcept (detail::recordBufferParameters says why).
  void grow(size_t Needed) {
    size_t NewCapacity = std::max<size_t>({Needed, 2 * Capacity, 16});
    auto *NewItems = new BufferValue[NewCapacity];
    if (Size)
      std::memcpy(NewItems, Items, Size * sizeof(BufferValue));
    delete[] Items;
    Items = NewItems;
    Capacity = NewCapacity;
  }

  /// Owned; a plain pointer keeps ThreadRing standard-layout (Hot is
  /// reached from the Ring the inline path holds: ThreadRing::from).
  BufferValue *Items = nullptr;
  size_t Size = 0;
  size_t Capacity = 0;
};

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_BUFFER_VALUE_LIST_H
