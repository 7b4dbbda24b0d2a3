// A project header's member function declared in its class and defined
// after it (`inline void Vault::push(float x) {...}`, as Quicksilver's
// ParticleVault::pushParticle) is copied as a free function taking its
// object, as one defined in its class: the copy's name replaces the class's
// name and its own (keeping the line breaks between them, so the copy's
// lines keep their numbers), private members are named through explicit
// instantiations, a call through `this` reaches a private member. Not
// copied, with the reason: one whose default arguments are on the class's
// declaration, one naming a type of its class's scope unqualified in its
// parameters, one defined outside its class's namespace, and a class
// template's.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "getter-calls.h"
#include "out-of-class-members.h"

// CHECK: namespace lib {
// CHECK-NEXT: #line 25 "{{.*}}Inputs/out-of-class-members.h"
// CHECK-NEXT: static inline void
// CHECK-NEXT: Vault_push_wgtrace_[[PUSH:[0-9]+]](::lib::Vault &self, float x)
// CHECK-NEXT: {
// CHECK-NEXT:   WGTRACE_STORE_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Vault_v{}))[(self.*wgtrace_member(::wgtrace_access::lib_Vault_slot{}))(WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Vault_n{}))))]) = x;
// CHECK-NEXT:   ++WGTRACE_UPDATE_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Vault_n{})));
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: namespace lib {
// CHECK-NEXT: #line 32 "{{.*}}Inputs/out-of-class-members.h"
// CHECK-NEXT: static inline void
// CHECK-NEXT: Vault_invalidate_wgtrace_[[INV:[0-9]+]](::lib::Vault &self, int i) { WGTRACE_STORE_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Vault_v{}))[(self.*wgtrace_member(::wgtrace_access::lib_Vault_slot{}))(i)]) = -1; }
// CHECK-NEXT: }
// CHECK-NEXT: namespace lib {
// CHECK-NEXT: #line 35 "{{.*}}Inputs/out-of-class-members.h"
// CHECK-NEXT: static inline float Vault_sum2_wgtrace_[[SUM:[0-9]+]](const ::lib::Vault &self, int i)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Vault_v{}))[i]) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, ((&self)->*wgtrace_member(::wgtrace_access::lib_Vault_v{}))[i + 1]); }
// CHECK-NEXT: }
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, lib::Vault *vault,
                        lib::Grid g, geo::Pair q, const lib::Table<float> *t,
                        float *a) {
  vault->push(a[0]);
  // CHECK: ::lib::Vault_push_wgtrace_[[PUSH]](*vault, WGTRACE_LOAD_AT({{[0-9]+}}, a[0]));
  vault->invalidate(1);
  // CHECK: ::lib::Vault_invalidate_wgtrace_[[INV]](*vault, 1);
  a[1] = vault->sum2(2) + vault->scaled(3) + g.at(4);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[1]) = ::lib::Vault_sum2_wgtrace_[[SUM]](*vault, 2) + vault->scaled(3) + g.at(4);
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:27: warning: call of 'lib::Vault::scaled' is not traced: 'lib::Vault::scaled' is defined in {{.*}}out-of-class-members.h, which is not rewritten, and cannot be copied into this file (its default arguments are on another declaration)
  // WARN-DAG: {{.*}}.cc:[[@LINE-3]]:46: warning: call of 'lib::Grid::at' is not traced: 'lib::Grid::at' is defined in {{.*}}out-of-class-members.h, which is not rewritten, and cannot be copied into this file (it is a member function and it names the type 'Index' of its class's scope, which a free copy cannot)
  a[2] = q.first() + t->at(0);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[2]) = q.first() + t->at(0);
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:10: warning: call of 'geo::Pair::first' is not traced: 'geo::Pair::first' is defined in {{.*}}out-of-class-members.h, which is not rewritten, and cannot be copied into this file (it is a member function defined outside its class's namespace)
  // WARN-DAG: {{.*}}.cc:[[@LINE-3]]:22: warning: call of 'lib::Table::at' is not traced: 'lib::Table::at' is defined in {{.*}}getter-calls.h, which is not rewritten, and cannot be copied into this file (it is a member function of a class template defined outside its class)
  (void)wg;
}
