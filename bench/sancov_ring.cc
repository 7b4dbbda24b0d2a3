//===- sancov_ring.cc - Clang's load/store coverage into thread-local rings
//--===//
//
// The comparison point for wgtrace's overhead: the same kernels compiled
// with -fsanitize-coverage=func,trace-loads,trace-stores, whose callbacks
// append the same 16-byte records to a thread-local ring of the same size.
// The difference that remains is what wgtrace's source-level choices buy:
// inline recording instead of a call per access, and no records for locals.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

struct Ring {
  uint8_t *Data = nullptr;
  uint64_t Mask = 0;
  uint64_t Head = 0;
};

thread_local Ring ThreadRing;

__attribute__((noinline)) void allocate(Ring &R) {
  uint64_t Size = uint64_t{16} << 20;
  R.Data = static_cast<uint8_t *>(std::calloc(1, Size + 4096));
  R.Mask = Size - 1;
}

inline void record(uint64_t Tag, const void *Address, uint64_t Length) {
  Ring &R = ThreadRing;
  if (__builtin_expect(!R.Data, 0))
    allocate(R);
  uint64_t Words[2] = {Tag | (Length << 8), uint64_t(uintptr_t(Address))};
  std::memcpy(R.Data + (R.Head & R.Mask), Words, sizeof(Words));
  R.Head += 16;
}

} // namespace

// __sanitizer_cov_load<N> / store<N>: N is the access size in bytes.
#define WGTRACE_SANCOV_ACCESS(bytes, type)                                     \
  extern "C" void __sanitizer_cov_load##bytes(type *Address) {                 \
    record(4, Address, bytes);                                                 \
  }                                                                            \
  extern "C" void __sanitizer_cov_store##bytes(type *Address) {                \
    record(5, Address, bytes);                                                 \
  }

WGTRACE_SANCOV_ACCESS(1, uint8_t)
WGTRACE_SANCOV_ACCESS(2, uint16_t)
WGTRACE_SANCOV_ACCESS(4, uint32_t)
WGTRACE_SANCOV_ACCESS(8, uint64_t)
WGTRACE_SANCOV_ACCESS(16, __int128)

// Function-entry coverage, required with trace-loads/stores: counted, so
// that it is not free either.
extern "C" void __sanitizer_cov_trace_pc_guard_init(uint32_t *, uint32_t *) {}
extern "C" void __sanitizer_cov_trace_pc_guard(uint32_t *Guard) { ++*Guard; }
