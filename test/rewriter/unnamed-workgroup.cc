// The prologue passes the workgroup parameter on by name: an unnamed one is
// an error that asks for a name, and nothing is written.
// RUN: not %wgtrace-rewrite %s -- %wgtrace-flags > %t.out 2> %t.err
// RUN: %count 0 < %t.out
// RUN: FileCheck %s < %t.err
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &, float *x) { x[0] = 1; }
// CHECK: unnamed-workgroup.cc:[[@LINE-1]]:51: error: the 'const wgtrace::Workgroup &' parameter of kernel 'k' has no name; name it so that wgtrace-rewrite can record the workgroup

WGTRACE_DISPATCH void bad(float *x) { x[0] = 1; }
// CHECK: unnamed-workgroup.cc:[[@LINE-1]]:23: error: kernel 'bad' is marked WGTRACE_DISPATCH but its first parameter is not 'const wgtrace::Workgroup &'
