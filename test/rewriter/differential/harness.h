//===- harness.h - Differential test harness for rewriter kernels ---------===//
//
// Each program in this directory runs its kernels on buffers it registers
// here, states the accesses each workgroup must make (the accesses the
// compiler performs on memory, by buffer, byte offset and length), and calls
// finish(). finish() prints every buffer's bytes to stdout (so the plain and
// the instrumented build can be compared bit for bit) and writes the buffer
// addresses and the expected accesses to the file named by DIFF_META, which
// run.py matches against the trace of the instrumented build.
//
// An expected access may also name the expression that makes it, as
// "<marker>:<text>": the access site of its records must be the source
// text <text> (spaces written as '~') on the line that carries the comment
// `// @<marker>`. A program that names one names all.
//
// Accesses made by atomic operations are stated apart (atomicLoad, ...):
// their records must carry the atomic mark, and the others must not.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_DIFFERENTIAL_HARNESS_H
#define WGTRACE_TEST_DIFFERENTIAL_HARNESS_H

#include <wgtrace/wgtrace.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace diff {

struct Wg {
  unsigned X = 0, Y = 0, Z = 0;
};

struct Buffer {
  std::string Name;
  const void *Data;
  size_t Bytes;
  /// Printed for the bit-for-bit comparison; false for buffers that hold
  /// addresses, which differ between the two builds.
  bool Print;
};

struct Expected {
  Wg W;
  /// 'L' load, 'S' store; 'l', 's': an atomic operation's.
  char Kind;
  std::string Buffer;
  size_t Offset;
  size_t Length;
  /// "<marker>:<text>", or "-" for any.
  std::string Site;
};

inline std::vector<Buffer> &buffers() {
  static std::vector<Buffer> B;
  return B;
}
inline std::vector<Expected> &expected() {
  static std::vector<Expected> E;
  return E;
}

/// A buffer a kernel is launched with, as its prologue must name it.
struct Argument {
  std::string Kernel;
  std::string Param;
  const void *Data;
  size_t Bytes;
};
inline std::vector<Argument> &arguments() {
  static std::vector<Argument> A;
  return A;
}

/// Kernel's buffer parameter Param is given Count objects of type T at P:
/// the BufferBase (and BufferExtent) records of its workgroups must lie in
/// them. Several calls for one parameter: any of them.
template <class T>
void argument(const char *Kernel, const char *Param, const T *P,
              size_t Count = 1) {
  arguments().push_back({Kernel, Param, P, Count * sizeof(T)});
}

/// Registers Count objects of type T at P under Name.
template <class T> void buffer(const char *Name, const T *P, size_t Count = 1) {
  buffers().push_back({Name, P, Count * sizeof(T), true});
}

/// Registers a buffer that holds addresses: its accesses are matched, its
/// bytes are not compared.
template <class T>
void addressBuffer(const char *Name, const T *P, size_t Count = 1) {
  buffers().push_back({Name, P, Count * sizeof(T), false});
}

/// An access of Length bytes at byte Offset of buffer Name. Accesses longer
/// than a record's 16-bit length field are recorded in pieces.
inline void bytes(Wg W, char Kind, const char *Name, size_t Offset,
                  size_t Length, const char *Site = "-") {
  while (Length > 0xFFFF) {
    expected().push_back({W, Kind, Name, Offset, 0xFFFF, Site});
    Offset += 0xFFFF;
    Length -= 0xFFFF;
  }
  if (Length)
    expected().push_back({W, Kind, Name, Offset, Length, Site});
}

/// A load / store / read-modify-write of element Index (of type T), made
/// by the expression Site names (see above).
template <class T>
void load(Wg W, const char *Name, size_t Index, const char *Site = "-") {
  bytes(W, 'L', Name, Index * sizeof(T), sizeof(T), Site);
}
template <class T>
void store(Wg W, const char *Name, size_t Index, const char *Site = "-") {
  bytes(W, 'S', Name, Index * sizeof(T), sizeof(T), Site);
}
template <class T>
void update(Wg W, const char *Name, size_t Index, const char *Site = "-") {
  load<T>(W, Name, Index, Site);
  store<T>(W, Name, Index, Site);
}

/// The same made by an atomic operation: its records carry the atomic
/// mark (an atomic read-modify-write is a load and a store).
template <class T>
void atomicLoad(Wg W, const char *Name, size_t Index, const char *Site = "-") {
  bytes(W, 'l', Name, Index * sizeof(T), sizeof(T), Site);
}
template <class T>
void atomicStore(Wg W, const char *Name, size_t Index, const char *Site = "-") {
  bytes(W, 's', Name, Index * sizeof(T), sizeof(T), Site);
}
template <class T>
void atomicUpdate(Wg W, const char *Name, size_t Index,
                  const char *Site = "-") {
  atomicLoad<T>(W, Name, Index, Site);
  atomicStore<T>(W, Name, Index, Site);
}

inline int finish() {
  for (const Buffer &B : buffers()) {
    if (!B.Print)
      continue;
    std::printf("%s:", B.Name.c_str());
    const unsigned char *P = static_cast<const unsigned char *>(B.Data);
    for (size_t I = 0; I < B.Bytes; ++I)
      std::printf("%s%02x", I % 32 ? "" : "\n  ", P[I]);
    std::printf("\n");
  }
  if (const char *Meta = std::getenv("DIFF_META")) {
    FILE *F = std::fopen(Meta, "w");
    if (!F)
      return 1;
    for (const Buffer &B : buffers())
      std::fprintf(F, "BUF %s %p %zu\n", B.Name.c_str(), B.Data, B.Bytes);
    for (const Argument &A : arguments())
      std::fprintf(F, "ARG %s %s %p %zu\n", A.Kernel.c_str(), A.Param.c_str(),
                   A.Data, A.Bytes);
    for (const Expected &E : expected())
      std::fprintf(F, "EXP %u,%u,%u %c %s %zu %zu %s\n", E.W.X, E.W.Y, E.W.Z,
                   E.Kind, E.Buffer.c_str(), E.Offset, E.Length,
                   E.Site.c_str());
    std::fclose(F);
  }
  return 0;
}

} // namespace diff

#endif // WGTRACE_TEST_DIFFERENTIAL_HARNESS_H
