// --openmp says what it does not trace in headers: the loops and regions
// of a project header's functions that are not copied into this file (a
// class template's member, called as a member), each once, at its place;
// and a loop of this file whose pragma comes from an included header, at
// the loop. Nothing for a template never instantiated, nothing for system
// headers. A free function this file calls (zero) is copied, its loop
// traced (openmp-header-copied.cc).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: FileCheck --check-prefix=TABLE %s < %t.out.cc
// RUN: FileCheck --check-prefix=COPY %s < %t.out.cc
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: not %wgtrace-rewrite --openmp --strict %t.cc -- %wgtrace-flags -I %S/Inputs 2>&1 | FileCheck --check-prefix=STRICT %s
#include "omp-header-loops.h"

// WARN-DAG: {{.*}}omp-header-loops.h:8:1: warning: '#pragma omp parallel' is not traced: it is in a header, and wgtrace-rewrite traces the OpenMP code of the files it rewrites, not of the headers they include (rewrite a source file that holds the code)
// WARN-DAG: {{.*}}omp-header-loops.h:10:1: warning: '#pragma omp for' is not traced: it is in a header, and wgtrace-rewrite traces the OpenMP code of the files it rewrites, not of the headers they include (rewrite a source file that holds the code)
// COPY: {"omp for at {{.*}}omp-header-loops.h:18 in zero", {{.*}}
// COPY: zero_wgtrace_0(outF, n);

void scaleAll(float *outF, const float *inF, double *outD, const double *inD,
              int n) {
  Scaler<float>().run(outF, inF, n);
  Scaler<double>().run(outD, inD, n);
  zero(outF, n);
}

void doubled(float *out, const float *in, int n) {
#include "omp-pragma-only.h"
  for (int i = 0; i < n; ++i)
    out[i] = in[i] * 2;
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:3: warning: '#pragma omp parallel for' is not traced: its pragma is written in a header that this file includes, which wgtrace cannot rewrite
}

// The viewer lists them: the untraced table names the header's places.
// TABLE: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// TABLE-DAG: {{.*}}omp-header-loops.h", 8, 1, "Scaler::run", "'#pragma omp parallel'",
// TABLE-NOT: omp-header-loops.h", 18,
// TABLE: };

// STRICT: error: '#pragma omp {{.*}}' is not traced
