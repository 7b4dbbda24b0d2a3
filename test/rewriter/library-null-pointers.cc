// A null pointer handed to a library function points nowhere: no kernel
// memory is read or written in library code (PENNANT's Driver called
// `gettimeofday(&sbegin, NULL)` and was reported as handing 'NULL' to the
// library, and every report then counted the call as missing accesses).
// A pointer into a kernel buffer still is reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <cstddef>
#include <ctime>
#include <sys/time.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a,
                        std::time_t *stamps) {
  unsigned i = wg.id[0];
  a[i] = float(std::time(NULL));
  a[i] += float(std::time(nullptr));
  a[i] += float(std::time(0));
  timeval t;
  gettimeofday(&t, NULL);
  a[i] += float(t.tv_sec);
  std::time(&stamps[i]);
  // WARN: {{.*}}.cc:[[@LINE-1]]:3: warning: call 'std::time(&stamps[i])' is not traced: 'time' is given kernel memory ('&stamps[i]') by pointer or reference and reads or writes it in library code, which wgtrace does not record
}
