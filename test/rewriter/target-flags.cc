// The kernel's target names its triple and the flags that change the
// code: the optimization level, the CPU and each feature that makes the
// target differ from that CPU's, not the features the CPU has anyway
// (-march=native has the driver write out every feature of the host:
// about a hundred, which -march=<cpu> says already).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -O2 -march=skylake -mavx2 -mavx512f -mno-sse4a | FileCheck --check-prefix=SKYLAKE %s
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -O3 -march=haswell -mno-avx2 -mcx16 | FileCheck --check-prefix=HASWELL %s
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -O1 -mavx2 -msse2 | FileCheck --check-prefix=BASELINE %s
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a) {
  a[wg.id[0]] = 0;
}

// SKYLAKE: {"k", "x86_64-{{[^"]*}}-linux-gnu -O2 -march=skylake -mavx512f", {{.*}}
// HASWELL: {"k", "x86_64-{{[^"]*}}-linux-gnu -O3 -march=haswell -mno-avx2", {{.*}}
// BASELINE: {"k", "x86_64-{{[^"]*}}-linux-gnu -O1 -mavx2", {{.*}}
