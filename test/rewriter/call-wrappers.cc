// The standard library's run-time call wrappers (std::function,
// std::reference_wrapper, bind and mem_fn results, std::invoke, std::apply)
// call a function chosen when the program runs, as a function pointer
// does: the call is untraced (warning, --strict error, table entry), since
// what the function it calls accesses is recorded only if that function is
// instrumented for another reason. They were silent. A library function
// object that is not a wrapper (std::plus) is a library function: given
// kernel memory by reference, it reads it in library code (untraced, with
// that reason).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++17 > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags -std=c++17 2>&1 | FileCheck --check-prefix=STRICT %s
#include <wgtrace/wgtrace.h>

#include <functional>
#include <tuple>

static void bump(float *p) { p[0] += 1; }

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "f(a + wg.id[0])", "it calls through a 'std::function' object: {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "r(a + 1)", "it calls through a 'std::reference_wrapper' object, {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "b()", "it calls through a 'std::_Bind' object, {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "std::invoke(bump, a + 3)", "it calls through 'std::invoke', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "std::apply(bump, std::make_tuple(a + 4))", "it calls through 'std::apply', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 10, "k", "std::plus<float>()(a[6], 1.0f)", "'std::plus::operator()' is given kernel memory ('a[6]') {{.*}}"},
// CHECK-NEXT: };
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a) {
  std::function<void(float *)> f = bump;
  f(a + wg.id[0]);
  // WARN: [[@LINE-1]]:3: warning: call 'f(a + wg.id[0])' is not traced: it calls through a 'std::function' object: a function of this file it holds runs instrumented, but a lambda or a functor it holds is recorded only if it is instrumented for another reason (a lambda of the kernel is)
  // STRICT: [[@LINE-2]]:3: error: call 'f(a + wg.id[0])' is not traced
  auto r = std::ref(bump);
  r(a + 1);
  // WARN: [[@LINE-1]]:3: warning: call 'r(a + 1)' is not traced: it calls through a 'std::reference_wrapper' object
  auto b = std::bind(bump, a + 2);
  b();
  // WARN: [[@LINE-1]]:3: warning: call 'b()' is not traced: it calls through a 'std::_Bind' object
  std::invoke(bump, a + 3);
  // WARN: [[@LINE-1]]:3: warning: call 'std::invoke(bump, a + 3)' is not traced: it calls through 'std::invoke'
  std::apply(bump, std::make_tuple(a + 4));
  // WARN: [[@LINE-1]]:3: warning: call 'std::apply(bump, std::make_tuple(a + 4))' is not traced: it calls through 'std::apply'
  a[5] = std::plus<float>()(a[6], 1.0f);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[5]) = std::plus<float>()(a[6], 1.0f);
  // WARN: [[@LINE-2]]:10: warning: call 'std::plus<float>()(a[6], 1.0f)' is not traced: 'std::plus::operator()' is given kernel memory ('a[6]') by pointer or reference and reads or writes it in library code, which wgtrace does not record
}
