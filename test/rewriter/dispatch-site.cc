// Every wgtrace::dispatch call gets its site id as first argument, and the
// module lists the site with its callee and file:line. Calls anywhere in
// the file count, also in namespaces and inside other functions.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

namespace ns {
WGTRACE_DISPATCH void scale(const wgtrace::Workgroup &wg, float *x) {
  x[wg.id[0]] *= 2;
}
} // namespace ns

WGTRACE_DISPATCH void fill(const wgtrace::Workgroup &wg, float *x) {
  x[wg.id[0]] = 1;
}

// CHECK: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT: {"fill", "{{.*}}.cc:28"},
// CHECK-NEXT: {"ns::scale", "{{.*}}.cc:30"},
// CHECK-NEXT: {"ns::scale", "{{.*}}.cc:33"},
// CHECK-NEXT: {"lambda at {{.*}}.cc:35", "{{.*}}.cc:35"},
// CHECK-NEXT: };
// CHECK: ::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 3, wgtrace_sites_, 4, WGTRACE_MODULE_EXTRAS(wgtrace_access_sites_, 2, nullptr, 0, wgtrace_access_site_bits_));

void run(float *x) {
  wgtrace::Grid g{4, 1, 1};
  wgtrace::dispatch(fill, g, x);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(0), fill, g, x);
  wgtrace::dispatch(&ns::scale, wgtrace::Grid{4, 1, 1}, x);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(1), &ns::scale, wgtrace::Grid{4, 1, 1}, x);
  using namespace wgtrace;
  dispatch(ns::scale, g, x);
  // CHECK: dispatch(WGTRACE_SITE(2), ns::scale, g, x);
  wgtrace::dispatch([](const wgtrace::Workgroup &, float *) {}, g, x);
  // A lambda is a kernel too (lambda-kernels.cc); an unnamed Workgroup
  // parameter gets a name for the prologue.
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(3), [](const wgtrace::Workgroup & wgtrace_workgroup_, float *) { WGTRACE_WORKGROUP(wgtrace_workgroup_, 2);}, g, x);
}
