// A loop the program asks to vectorize: instrumented, its accesses call
// the recorder and it cannot be, which is the instrumentation's doing.
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void scale(const wgtrace::Workgroup &wg, float *a,
                            const float *b, int n) {
  int first = wg.id[0] * n;
#pragma omp simd
  for (int i = first; i < first + n; ++i)
    a[i] = 2 * b[i];
}
