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
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_ALGORITHMS_ORACLE_H
#define WGTRACE_TEST_ALGORITHMS_ORACLE_H

#include <wgtrace/wgtrace.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#ifdef WGTRACE_ORACLE
extern "C" void oracleBuffer(const char *Name, const void *Data, size_t Bytes);
extern "C" void oracleBegin();
extern "C" void oracleEnd();
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

/// Calls Kernel once per workgroup 0..Groups-1, as a user's own loop would.
template <class Kernel, class... Args>
void run(Kernel K, unsigned Groups, Args... A) {
  for (unsigned G = 0; G < Groups; ++G) {
    wgtrace::Workgroup WG{};
    WG.id[0] = G;
    WG.count[0] = Groups;
#ifdef WGTRACE_ORACLE
    oracleBegin();
#endif
    K(WG, A...);
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

#endif // WGTRACE_TEST_ALGORITHMS_ORACLE_H
