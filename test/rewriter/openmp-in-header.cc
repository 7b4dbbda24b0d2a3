// --openmp says what it does not trace in headers: a loop of this file
// whose pragma comes from an included header, at the loop. Nothing for a
// template never instantiated, nothing for system headers. A free function
// this file calls (zero) is copied, its loop traced
// (openmp-header-copied.cc), and so is a class template's member called
// on temporaries (Scaler::run), whose region holds nothing but its loop
// (openmp-header-member.cc).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: FileCheck --check-prefix=TABLE %s < %t.out.cc
// RUN: FileCheck --check-prefix=COPY %s < %t.out.cc
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: not %wgtrace-rewrite --openmp --strict %t.cc -- %wgtrace-flags -I %S/Inputs 2>&1 | FileCheck --check-prefix=STRICT %s
#include "omp-header-loops.h"

// COPY: {"omp for at {{.*}}omp-header-loops.h:10 in Scaler::run", {{.*}}
// COPY: {"omp for at {{.*}}omp-header-loops.h:18 in zero", {{.*}}
// COPY: template <class T> static inline void Scaler_run_wgtrace_0(::Scaler<T> &self, T *out, const T *in, std::size_t n) {
// COPY: ::Scaler_run_wgtrace_0<float>([](auto &&wgtrace_object) -> auto & { return wgtrace_object; }(Scaler<float>()), outF, inF, n);
// COPY: ::Scaler_run_wgtrace_0<double>([](auto &&wgtrace_object) -> auto & { return wgtrace_object; }(Scaler<double>()), outD, inD, n);
// COPY: zero_wgtrace_1(outF, n);

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

// The viewer lists it.
// TABLE: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// TABLE-NEXT: {{.*}}.cc", [[#@LINE-7]], 3, "doubled", "'#pragma omp parallel for'",
// TABLE-NEXT: };

// STRICT: error: '#pragma omp {{.*}}' is not traced
