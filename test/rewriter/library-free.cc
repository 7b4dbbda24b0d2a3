// free() releases the storage it is given: it reads and writes none of the
// program's bytes there. PENNANT's `Memory::free(T *ptr) { std::free(ptr);
// }`, reached from its loops, was reported as handing kernel memory to the
// library, and every report then counted the call as missing accesses.
// realloc copies the bytes and is still reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <cstdlib>
#include <stdlib.h>

template <typename T> void release(T *ptr) { std::free(ptr); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float **scratch,
                        int **counts, double **grown) {
  unsigned i = wg.id[0];
  release(scratch[i]);
  free(counts[i]);
  grown[i] = static_cast<double *>(std::realloc(grown[i], 64));
  // WARN: {{.*}}.cc:[[@LINE-1]]:36: warning: call 'std::realloc(grown[i], 64)' is not traced: 'realloc' is given kernel memory ('grown[i]') by pointer or reference and reads or writes it in library code, which wgtrace does not record
}
