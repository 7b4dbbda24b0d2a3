//===- RowMemory.cc -------------------------------------------------------===//

#include "RowMemory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; older kernels answer EINVAL
#endif

namespace wgtrace::python {

std::unique_ptr<RowMemory> RowMemory::map(size_t Bytes) {
  void *P = ::mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED)
    return nullptr;
  return std::unique_ptr<RowMemory>(new RowMemory(P, Bytes));
}

RowMemory::~RowMemory() {
  stopPopulating();
  ::munmap(Address, Bytes);
}

void RowMemory::startPopulating() {
  Stop = false;
  Helper = std::thread([this] { populate(); });
}

void RowMemory::stopPopulating() {
  Stop = true;
  if (Helper.joinable())
    Helper.join();
}

void RowMemory::populate() {
  // Pieces small enough to stop soon after the fill ends, large enough that
  // the calls cost nothing next to the faults.
  constexpr size_t Piece = size_t(8) << 20;
  auto *Base = static_cast<uint8_t *>(Address);
  size_t End = Bytes;
  while (End > 0 && !Stop.load(std::memory_order_relaxed)) {
    const size_t Begin = End > Piece ? (End - 1) / Piece * Piece : 0;
    // Pages the filler reached already cost only a page-table walk; a
    // kernel without MADV_POPULATE_WRITE (or a failure) ends the help.
    if (::madvise(Base + Begin, End - Begin, MADV_POPULATE_WRITE) != 0)
      return;
    End = Begin;
  }
}

} // namespace wgtrace::python
