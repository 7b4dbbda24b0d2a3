// A source with errors: clang's diagnostic with file:line:col, exit
// status 1, and nothing at all on stdout.
// RUN: not %wgtrace-rewrite %s -- %wgtrace-flags > %t.out 2> %t.err
// RUN: %count 0 < %t.out
// RUN: FileCheck %s < %t.err
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *x) {
  x[wg.id[0]] = undeclared_name;
  // CHECK: error-input.cc:[[@LINE-1]]:17: error: use of undeclared identifier 'undeclared_name'
}
