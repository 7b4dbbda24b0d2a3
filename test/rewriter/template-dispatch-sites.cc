// A launch written in a function template launches one instantiation of a
// template kernel per instantiation of its own: the site argument picks,
// at compile time, a site per launched instantiation (kInstanceIn, as the
// gated accesses of template-instances-gated.cc), each naming the kernel
// instantiation it launches, so that the float and the double workgroups
// are told apart and the instantiations are not listed as never run. Two
// instantiations of the launcher that launch the same kernel share its
// site. Where the launcher's instantiations cannot be told apart in its
// text (a generic lambda of two instantiations), the site names the
// kernel's template, as before.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <type_traits>

// CHECK: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT:     {"scale<float>", "{{.*}}:32"},
// CHECK-NEXT:     {"scale<double>", "{{.*}}:32"},
// CHECK-NEXT:     {"scale<float>", "{{.*}}:37"},
// CHECK-NEXT:     {"scale", "{{.*}}:47"},
// CHECK-NEXT: };
template <class T>
WGTRACE_DISPATCH void scale(const wgtrace::Workgroup &wg, T *d) {
  d[wg.id[0]] *= T(2);
}

template <class T> void launch(T *d) {
  // CHECK: wgtrace::dispatch(((::wgtrace::detail::kInstanceIn<::wgtrace::detail::InstanceTag<T>, ::wgtrace::detail::InstanceTag<float>>) ? WGTRACE_SITE(0) : WGTRACE_SITE(1)), scale<T>, wgtrace::Grid{4, 1, 1}, d);
  wgtrace::dispatch(scale<T>, wgtrace::Grid{4, 1, 1}, d);
}

template <int N> void launchFloats(float *d) {
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(2), scale<float>, wgtrace::Grid{N, 1, 1}, d);
  wgtrace::dispatch(scale<float>, wgtrace::Grid{N, 1, 1}, d);
}

void run(float *f, double *g) {
  launch(f);
  launch(g);
  launchFloats<2>(f);
  launchFloats<4>(f);
  auto generic = [](auto *d) {
    // CHECK: wgtrace::dispatch(WGTRACE_SITE(3), scale<std::remove_pointer_t<decltype(d)>>,
    wgtrace::dispatch(scale<std::remove_pointer_t<decltype(d)>>,
                      wgtrace::Grid{4, 1, 1}, d);
  };
  generic(f);
  generic(g);
}
