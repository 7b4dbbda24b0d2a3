// A call of a project header's member function written in a macro's
// argument (Quicksilver's `qs_assert(i < v.size())`) is redirected to the
// member's instrumented copy in the argument's text, as a function's call
// is; each expansion of the argument then calls the copy. A call written
// in a macro's body stays as written and is reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "copied-helpers.h"

#define ONCE(e) do { e; } while (0)
#define TWICE(e) do { e; e; } while (0)
#define ADD_ONE(a) a.add(1)

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, lib::Acc acc,
                        lib::Acc *p) {
  ONCE(acc.add(2));
  // CHECK: ONCE(::lib::Acc_add_wgtrace_[[ADD:[0-9]+]](acc, 2));
  TWICE(p->add(3));
  // CHECK: TWICE(::lib::Acc_add_wgtrace_[[ADD]](*p, 3));
  ADD_ONE(acc);
  // CHECK: ADD_ONE(acc);
  // WARN: {{.*}}.cc:[[@LINE-2]]:11: warning: call of 'lib::Acc::add' is not traced: it is spelled in a macro expansion, and is not redirected to the instrumented copy of 'lib::Acc::add': what that call accesses is not recorded
  (void)wg;
}

template <class T>
WGTRACE_DISPATCH void t(const wgtrace::Workgroup &wg, T *acc) {
  ONCE(acc->add(4));
  // CHECK: ONCE(::lib::Acc_add_wgtrace_[[ADD]](*acc, 4));
  (void)wg;
}
template void t(const wgtrace::Workgroup &, lib::Acc *);
