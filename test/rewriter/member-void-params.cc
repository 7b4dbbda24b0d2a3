// A header's member copied into the kernel's file (MemberCopy.h) takes its
// object as a first parameter, `self`; a member written `f(void)` has no
// parameters, and its `void` goes, or the copy's list read `const
// ::pp::Comm &selfvoid` and the rewritten file did not compile (CLAMR's
// PowerParser.cc calling PP::Comm::getNumProcs and isIOProc of Comm.hh).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %count 0 < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "member-void-params.h"

// CHECK: static inline int Comm_getNumProcs_wgtrace_0(const ::pp::Comm &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::pp_Comm_npes{}))); }
// CHECK: static inline bool Comm_isIOProc_wgtrace_1(const ::pp::Comm &self  )  {
// CHECK-NEXT:     if (WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::pp_Comm_mype{}))) == WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::pp_Comm_iope{})))) return true;
// CHECK: static inline void Comm_reset_wgtrace_2(::pp::Comm &self) { WGTRACE_STORE_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::pp_Comm_npes{}))) = 1; }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, pp::Comm *c, int *a) {
  unsigned i = wg.id[0];
  a[i] = c->getNumProcs() + (c->isIOProc() ? 1 : 0);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[i]) = ::pp::Comm_getNumProcs_wgtrace_0(*c) + (::pp::Comm_isIOProc_wgtrace_1(*c) ? 1 : 0);
  c[i].reset();
  // CHECK: ::pp::Comm_reset_wgtrace_2(c[i]);
}
