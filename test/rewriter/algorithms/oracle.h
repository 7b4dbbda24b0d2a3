//===- oracle.h - Harness of the algorithm oracle test
//---------------------===//
//
// Each program here runs its kernels through run(), which calls the kernel
// once per workgroup, directly. Built instrumented (wgtrace-rewrite), the
// program's trace holds each invocation's records. Built as the oracle
// (clang -O0 -fsanitize-coverage=trace-loads,trace-stores, see run.py), the
// same calls are bracketed by oracleBegin/oracleEnd, and the coverage
// callbacks (oracle_runtime.cc) note every load and store the compiled code
// makes inside the registered buffers. run.py compares, invocation by
// invocation, the two sequences of (kind, buffer, offset, length).
//
// finish() prints every buffer (the two builds must compute the same bytes)
// and writes the buffers' addresses to the file named by ORACLE_META.
//
// A program whose kernels allocate (a std::vector that grows) defines
// ORACLE_KERNEL_HEAP first: what the program's own code allocates while a
// kernel runs then comes from one registered buffer, "heap", handed out in
// order and never reused, so that both builds see the new storage at the
// same offsets; what is freed while a kernel runs stays as it was (a
// vector's old storage, still registered, is printed as the kernel left
// it). The wgtrace runtime's own allocations (a thread's ring, made in the
// first kernel prologue) come from code outside the executable and are
// left to malloc.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_ALGORITHMS_ORACLE_H
#define WGTRACE_TEST_ALGORITHMS_ORACLE_H

#include <wgtrace/wgtrace.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#ifdef WGTRACE_ORACLE
extern "C" void oracleBuffer(const char *Name, const void *Data, size_t Bytes);
extern "C" void oracleBegin();
extern "C" void oracleEnd();
extern "C" int oracleNoting;
#endif

namespace oracle {

struct Buffer {
  std::string Name;
  const void *Data;
  size_t Bytes;
};

inline std::vector<Buffer> &buffers() {
  static std::vector<Buffer> B;
  return B;
}

/// Registers Count objects of type T at P under Name: the accesses compared
/// are those inside registered buffers.
template <class T> void buffer(const char *Name, const T *P, size_t Count) {
  buffers().push_back({Name, P, Count * sizeof(T)});
#ifdef WGTRACE_ORACLE
  oracleBuffer(Name, P, Count * sizeof(T));
#endif
}

#ifdef ORACLE_KERNEL_HEAP
struct KernelHeap {
  alignas(64) static inline unsigned char Bytes[8192];
  static inline size_t Used = 0;
  static inline bool Active = false;
  static inline bool Registered = false;
};
#endif

/// Calls Kernel once per workgroup 0..Groups-1, as a user's own loop would.
template <class Kernel, class... Args>
void run(Kernel K, unsigned Groups, Args... A) {
#ifdef ORACLE_KERNEL_HEAP
  if (!KernelHeap::Registered) {
    KernelHeap::Registered = true;
    buffer("heap", KernelHeap::Bytes, sizeof KernelHeap::Bytes);
  }
#endif
  for (unsigned G = 0; G < Groups; ++G) {
    wgtrace::Workgroup WG{};
    WG.id[0] = G;
    WG.count[0] = Groups;
#ifdef WGTRACE_ORACLE
    oracleBegin();
#endif
#ifdef ORACLE_KERNEL_HEAP
    KernelHeap::Active = true;
#endif
    K(WG, A...);
#ifdef ORACLE_KERNEL_HEAP
    KernelHeap::Active = false;
#endif
#ifdef WGTRACE_ORACLE
    oracleEnd();
#endif
  }
}

inline int finish() {
  for (const Buffer &B : buffers()) {
    std::printf("%s:", B.Name.c_str());
    const unsigned char *P = static_cast<const unsigned char *>(B.Data);
    for (size_t I = 0; I < B.Bytes; ++I)
      std::printf("%s%02x", I % 32 ? "" : "\n  ", P[I]);
    std::printf("\n");
  }
  if (const char *Meta = std::getenv("ORACLE_META")) {
    FILE *F = std::fopen(Meta, "w");
    if (!F)
      return 1;
    for (const Buffer &B : buffers())
      std::fprintf(F, "BUF %s %p %zu\n", B.Name.c_str(), B.Data, B.Bytes);
    std::fclose(F);
  }
  return 0;
}

} // namespace oracle

#ifdef ORACLE_KERNEL_HEAP
extern "C" char __executable_start[], etext[];

void *operator new(size_t Bytes) {
  using oracle::KernelHeap;
  auto *Caller = static_cast<char *>(__builtin_return_address(0));
  bool Noting = false;
#ifdef WGTRACE_ORACLE
  Noting = oracleNoting != 0;
#endif
  if (KernelHeap::Active && !Noting && Caller >= __executable_start &&
      Caller < etext) {
    size_t At = (KernelHeap::Used + 15) & ~size_t(15);
    if (At + Bytes > sizeof KernelHeap::Bytes) {
      std::fprintf(stderr, "oracle: the kernel heap is full\n");
      std::abort();
    }
    KernelHeap::Used = At + Bytes;
    return KernelHeap::Bytes + At;
  }
  if (void *P = std::malloc(Bytes ? Bytes : 1))
    return P;
  throw std::bad_alloc();
}

void operator delete(void *P) noexcept {
  using oracle::KernelHeap;
  auto *Byte = static_cast<unsigned char *>(P);
  if (KernelHeap::Active ||
      (Byte >= KernelHeap::Bytes &&
       Byte < KernelHeap::Bytes + sizeof KernelHeap::Bytes))
    return;
  std::free(P);
}

void operator delete(void *P, size_t) noexcept { operator delete(P); }
#endif

#endif // WGTRACE_TEST_ALGORITHMS_ORACLE_H
