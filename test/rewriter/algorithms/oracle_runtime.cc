//===- oracle_runtime.cc - Coverage callbacks of the algorithm oracle -----===//
//
// Compiled without coverage instrumentation and linked into the oracle
// build: __sanitizer_cov_load<N>/store<N> note each access the
// instrumented code makes inside a registered buffer while a kernel
// invocation runs (oracleBegin..oracleEnd), and the notes are written to
// the file named by ORACLE_TRACE at exit, one "INVOCATION" line per
// invocation followed by its "L|S <buffer> <offset> <length>" lines.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// Non-zero while the notes grow: a program whose kernels allocate from the
// harness's kernel heap (oracle.h, ORACLE_KERNEL_HEAP) leaves these
// allocations to malloc.
extern "C" {
int oracleNoting = 0;
}

namespace {

struct Buffer {
  std::string Name;
  uintptr_t Begin;
  uintptr_t End;
};

struct Access {
  char Kind;
  unsigned Buffer;
  uintptr_t Offset;
  unsigned Length;
};

std::vector<Buffer> Buffers;
std::vector<std::vector<Access>> Invocations;
bool Active = false;

void note(char Kind, const void *Address, unsigned Length) {
  if (!Active)
    return;
  uintptr_t A = reinterpret_cast<uintptr_t>(Address);
  for (unsigned I = 0; I < Buffers.size(); ++I)
    if (A >= Buffers[I].Begin && A < Buffers[I].End) {
      ++oracleNoting;
      Invocations.back().push_back({Kind, I, A - Buffers[I].Begin, Length});
      --oracleNoting;
      return;
    }
}

void writeTrace() {
  const char *Path = std::getenv("ORACLE_TRACE");
  if (!Path)
    return;
  FILE *F = std::fopen(Path, "w");
  if (!F)
    return;
  for (const std::vector<Access> &Invocation : Invocations) {
    std::fprintf(F, "INVOCATION\n");
    for (const Access &A : Invocation)
      std::fprintf(F, "%c %s %zu %u\n", A.Kind, Buffers[A.Buffer].Name.c_str(),
                   static_cast<size_t>(A.Offset), A.Length);
  }
  std::fclose(F);
}

} // namespace

extern "C" void oracleBuffer(const char *Name, const void *Data, size_t Bytes) {
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Data);
  Buffers.push_back({Name, Begin, Begin + Bytes});
  static bool Registered = false;
  if (!Registered) {
    Registered = true;
    std::atexit(writeTrace);
  }
}

extern "C" void oracleBegin() {
  Invocations.emplace_back();
  Active = true;
}

extern "C" void oracleEnd() { Active = false; }

#define ORACLE_ACCESS(bytes, type)                                             \
  extern "C" void __sanitizer_cov_load##bytes(type *Address) {                 \
    note('L', Address, bytes);                                                 \
  }                                                                            \
  extern "C" void __sanitizer_cov_store##bytes(type *Address) {                \
    note('S', Address, bytes);                                                 \
  }

ORACLE_ACCESS(1, uint8_t)
ORACLE_ACCESS(2, uint16_t)
ORACLE_ACCESS(4, uint32_t)
ORACLE_ACCESS(8, uint64_t)
ORACLE_ACCESS(16, __int128)

// Function-entry coverage, which trace-loads and trace-stores come with.
extern "C" void __sanitizer_cov_trace_pc_guard_init(uint32_t *, uint32_t *) {}
extern "C" void __sanitizer_cov_trace_pc_guard(uint32_t *) {}
