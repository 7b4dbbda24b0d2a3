// A kernel called directly, by the user's own loop, keeps its call as is:
// its workgroups are recorded under the kernel's direct-call site, which
// the runtime provides. Only wgtrace::dispatch calls get a site.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void add_one(const wgtrace::Workgroup &wg, int *x) {
  x[wg.id[0]] += 1;
}

// CHECK: ::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 1, nullptr, 0, WGTRACE_MODULE_EXTRAS(wgtrace_access_sites_, 1, nullptr, 0, wgtrace_access_site_bits_));

int main() {
  int x[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < 4; ++i) {
    wgtrace::Workgroup wg{};
    wg.id[0] = i;
    wg.count[0] = 4;
    add_one(wg, x);
    // CHECK: add_one(wg, x);
  }
  return x[0] == 1 ? 0 : 1;
  // CHECK: return x[0] == 1 ? 0 : 1;
}
