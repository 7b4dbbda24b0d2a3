// A file that launches a kernel defined elsewhere: no function entries (a
// null pointer and 0, since C++ has no empty arrays), one site whose callee
// is resolved by name when the trace is written.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines --strict-whitespace %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

namespace lib {
WGTRACE_DISPATCH void external_kernel(const wgtrace::Workgroup &wg, float *x);
}

void launch(float *x) {
  wgtrace::dispatch(lib::external_kernel, wgtrace::Grid{2, 1, 1}, x);
}
// CHECK:#include <wgtrace/instrument.h>
// CHECK-NEXT:namespace {
// CHECK-NEXT:const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT:    {"lib::external_kernel", "{{.*}}.cc:15"},
// CHECK-NEXT:};
// CHECK-NEXT:::wgtrace::detail::Module wgtrace_module_(nullptr, 0, wgtrace_sites_, 1);
// CHECK-NEXT:} // namespace
// CHECK-NEXT:#line 1 "{{.*}}"
// CHECK:  wgtrace::dispatch(WGTRACE_SITE(0), lib::external_kernel, wgtrace::Grid{2, 1, 1}, x);
