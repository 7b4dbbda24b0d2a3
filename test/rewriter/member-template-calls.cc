// A copied member that calls a member template of its class with explicit
// template arguments (CloverLeaf's `extent<0>()`) keeps the arguments: the
// name gains its object, `self.extent<0>()`, and in a class template's copy,
// whose object is of a dependent type, `self.template extent<0>()` (also for
// `this->` and another object of the class). Before, the copy said
// `self.extent()`, which compiles with neither compiler. The member template
// itself is not copied: its calls are reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "member-template-calls.h"

// CHECK: template <typename T> static inline std::size_t Grid2_cells_wgtrace_[[CELLS:[0-9]+]](const ::Grid2<T> &self)  { return self.template extent<0>() * (&self)->template extent<1>(); }
// CHECK: template <typename T> static inline std::size_t Grid2_padded_wgtrace_[[PADDED:[0-9]+]](const ::Grid2<T> &self, const Grid2<T> &o)  { return o.template extent<0>(2) + self.template extent<1>(1); }
// CHECK: template <typename T> static inline T Grid2_first_wgtrace_[[FIRST:[0-9]+]](const ::Grid2<T> &self)  { return WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.data)[self.template extent<0>() - WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.nx)]); }
// CHECK: static inline std::size_t Line_cells_wgtrace_[[LINE:[0-9]+]](const ::Line &self)  { return self.extent<0>() * (&self)->extent<1>(); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Grid2<float> &g,
                        Line &l, double *out) {
  out[wg.id[0]] = g.cells() + g.padded(g) + g.first() + l.cells();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[wg.id[0]]) = ::Grid2_cells_wgtrace_[[CELLS]]<float>(g) + ::Grid2_padded_wgtrace_[[PADDED]]<float>(g, g) + ::Grid2_first_wgtrace_[[FIRST]]<float>(g) + ::Line_cells_wgtrace_[[LINE]](l);
}

// WARN: {{.*}}member-template-calls.h:20:38: warning: call of 'Line::extent' is not traced: 'Line::extent' is defined in {{.*}}member-template-calls.h, which is not rewritten, and cannot be copied into this file (it is a member function template)
// WARN: {{.*}}member-template-calls.h:20:52: warning: call of 'Line::extent' is not traced:
// WARN: {{.*}}member-template-calls.h:13:33: warning: call of 'Grid2::extent' is not traced:
// WARN: {{.*}}member-template-calls.h:12:53: warning: call of 'Grid2::extent' is not traced:
// WARN: {{.*}}member-template-calls.h:12:70: warning: call of 'Grid2::extent' is not traced:
// WARN: {{.*}}member-template-calls.h:11:38: warning: call of 'Grid2::extent' is not traced:
// WARN: {{.*}}member-template-calls.h:11:52: warning: call of 'Grid2::extent' is not traced:
