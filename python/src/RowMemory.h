//===- RowMemory.h - Fresh memory for millions of rows ----------*- C++ -*-===//
//
// Trace.accesses() returns gigabytes of rows; on many machines (virtual ones
// above all) providing that much fresh memory costs more than decoding the
// records that fill it: the kernel faults in and zeroes every page. So the
// rows get their own anonymous mapping (numpy's allocator would ask for
// transparent huge pages, whose first use can stall for seconds while the
// kernel assembles them), and while the decoder fills it from the start, a
// second thread has the kernel populate it from the end
// (MADV_POPULATE_WRITE): on a machine with a free core the page faults and
// the decoding overlap. Populating never changes the bytes, so the two
// threads need no coordination; the helper stops when the fill is done.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_PYTHON_ROWMEMORY_H
#define WGTRACE_PYTHON_ROWMEMORY_H

#include <atomic>
#include <cstddef>
#include <memory>
#include <thread>

namespace wgtrace::python {

class RowMemory {
public:
  /// Maps \p Bytes (> 0) of zeroed memory; null when the system has none.
  static std::unique_ptr<RowMemory> map(size_t Bytes);
  ~RowMemory();
  RowMemory(const RowMemory &) = delete;
  RowMemory &operator=(const RowMemory &) = delete;

  void *data() const { return Address; }

  /// Starts populating the pages, from the last towards the first, in a
  /// background thread.
  void startPopulating();
  /// Stops and joins that thread.
  void stopPopulating();

private:
  RowMemory(void *Address, size_t Bytes) : Address(Address), Bytes(Bytes) {}
  void populate();

  void *Address;
  size_t Bytes;
  std::atomic<bool> Stop{false};
  std::thread Helper;
};

} // namespace wgtrace::python

#endif // WGTRACE_PYTHON_ROWMEMORY_H
