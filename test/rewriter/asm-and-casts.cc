// An element accessed as another type through a reference cast is wrapped
// with the cast (the address is the element's, the size the new type's).
// Register operands of inline assembly are accesses of their lvalue
// ("=r" a store, "+r" an update, "r" a load); a memory operand ("m") is an
// address the assembly may use as it likes, and so is a pointer into kernel
// memory handed to it: untraced, with the reason. They were all silent.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, int *b) {
  int bits = reinterpret_cast<int &>(a[wg.id[0]]);
  // CHECK: int bits = WGTRACE_LOAD_AT({{[0-9]+}}, reinterpret_cast<int &>(a[wg.id[0]]));
  reinterpret_cast<int &>(a[1]) = bits;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, reinterpret_cast<int &>(a[1])) = bits;
  asm("mov %1, %0" : "=r"(b[0]) : "r"(b[1]));
  // CHECK: asm("mov %1, %0" : "=r"(WGTRACE_STORE_AT({{[0-9]+}}, b[0])) : "r"(WGTRACE_LOAD_AT({{[0-9]+}}, b[1])));
  asm("add $1, %0" : "+r"(b[2]));
  // CHECK: asm("add $1, %0" : "+r"(WGTRACE_UPDATE_AT({{[0-9]+}}, b[2])));
  asm volatile("" : : "m"(b[3]));
  // WARN: [[@LINE-1]]:27: warning: load of 'b[3]' is not traced: it is a memory operand of inline assembly, whose accesses wgtrace cannot see
  asm volatile("" : "+m"(b[4]));
  // WARN: [[@LINE-1]]:26: warning: update of 'b[4]' is not traced: it is a memory operand of inline assembly, whose accesses wgtrace cannot see
  asm volatile("" : : "o"(b[5]));
  // WARN: [[@LINE-1]]:27: warning: load of 'b[5]' is not traced: it is a memory operand of inline assembly, whose accesses wgtrace cannot see
  asm("" : "=rm"(b[6]));
  // CHECK: asm("" : "=rm"(WGTRACE_STORE_AT({{[0-9]+}}, b[6])));
  asm volatile("" : : "r"(b + 7) : "memory");
  // WARN: [[@LINE-1]]:27: warning: access of 'b + 7' is not traced: it points into kernel memory and is handed to inline assembly, whose accesses wgtrace cannot see
  int *p = b;
  asm volatile("" : "+r"(p));
  // WARN: [[@LINE-1]]:26: warning: access of 'p' is not traced: it points into kernel memory and is handed to inline assembly, whose accesses wgtrace cannot see
}
