// A standard algorithm over kernel memory is redirected to its recording
// version in <wgtrace/algorithms.h> (included first), one role per
// argument: 'M' an iterator or range into kernel memory, '-' anything else,
// 'L' a callable that is not instrumented or takes elements by value, 'R'
// a lambda of the kernel that takes them by reference, 'A'/'B' mixed. A
// call over locals only stays as it is; what cannot be recorded is a
// warning, an error under --strict, and an entry of the untraced table.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <algorithm>
#include <execution>
#include <functional>
#include <iterator>
#include <numeric>
#include <span>
#include <string>
#include <vector>

// CHECK: #include <wgtrace/algorithms.h>
// CHECK-NEXT: #include <wgtrace/instrument.h>
// Each redirected call is an access site of kind 3 (a call), with the call's
// place and text, and is given it first: its records name the call.
// CHECK: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT: {"{{.*}}", [[#COPY:]], 3, 3, "k", "std::copy(x, x + 8, b)"},
// CHECK-NEXT: {"{{.*}}", [[#COPY+2]], 3, 3, "k", "std::copy(x, x + 8, local)"},
// CHECK-NEXT: {"{{.*}}", [[#COPY+6]], 3, 3, "k", "std::sort(v.begin(), v.end(), [](const float &p, const float &q) { return p >..."},
// The lambda's own accesses name its expressions.
// CHECK-NEXT: {"{{.*}}", [[#COPY+6]], 77, 0, "k", "p"},
// The untraced calls (below) are listed in the metadata, which the viewer
// reports.
// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#FILL:]], 21, "k", "b[5]", "'std::fill_n' reads it through a reference, inside the library (pass a local copy to record one load)"},
// CHECK-NEXT: {"{{.*}}", [[#FILL+2]], 3, "k", "std::copy(x, x + 2, std::back_inserter(v))", "it writes through {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#FILL+2]], 23, "k", "std::back_inserter(v)", "{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#FILL+4]], 3, "k", "std::sort(s, s + n)", "its elements, {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#FILL+6]], 27, "k", "what 'bump' writes to the elements of 'std::for_each'", "{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#FILL+9]], 3, "k", "SORT(x, x + 8)", "{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#FILL+11]], 3, "k", "std::copy<float *, float *>(x, x + 1, b)", "{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#FILL+13]], 3, "k", "std::transform(std::execution::seq, x, x + 8, b, [](float e) { return e; })", "it has an execution policy{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#FILL+18]], 3, "k", "std::for_each(std::execution::par, x, x + 8, [&](float &e) { a[1] = e; })", "it has an execution policy{{.*}}"},
// CHECK-NEXT: };

static float half(float x) { return x / 2; }
static void bump(float &x) { x += 1; }
#define SORT(first, last) std::sort(first, last)

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, float *b,
                        std::vector<float> &v, std::string *s, int n) {
  float local[8] = {};
  float *x = a + wg.id[0] * 8;
  std::copy(x, x + 8, b);
  // CHECK: ::wgtrace::detail::recorded::copy<'M', 'M', 'M'>(WGTRACE_ACCESS_SITE(1))(x, x + 8, b);
  std::copy(x, x + 8, local);
  // CHECK: ::wgtrace::detail::recorded::copy<'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(x, x + 8, local);
  std::copy(local, local + 4, local + 4);
  // CHECK: std::copy(local, local + 4, local + 4);
  std::sort(v.begin(), v.end(), [](const float &p, const float &q) { return p > q; });
  // CHECK: ::wgtrace::detail::recorded::sort<'M', 'M', 'R'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(v.begin(), v.end(), [](const float &p, const float &q) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p) > WGTRACE_LOAD_REF_AT({{[0-9]+}}, q); });
  b[0] = std::transform_reduce(x, x + 8, b, 0.0f);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, b[0]) = ::wgtrace::detail::recorded::transform_reduce<'M', 'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(x, x + 8, b, 0.0f);
  std::transform(x, x + 8, b, half);
  // CHECK: ::wgtrace::detail::recorded::transform<'M', 'M', 'M', 'L'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(x, x + 8, b, half);
  b[1] = std::accumulate(x, x + 8, 0.0f, [](float acc, const float &e) { return acc + e; });
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, b[1]) = ::wgtrace::detail::recorded::accumulate<'M', 'M', '-', 'B'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(x, x + 8, 0.0f, [](float acc, const float &e) { return acc + WGTRACE_LOAD_REF_AT({{[0-9]+}}, e); });
  std::for_each(v.rbegin(), v.rend(), [](auto &e) { e *= 2; });
  // CHECK: ::wgtrace::detail::recorded::for_each<'M', 'M', 'R'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(v.rbegin(), v.rend(), [](auto &e) { WGTRACE_UPDATE_REF_AT({{[0-9]+}}, e) *= 2; });
  using namespace std;
  b[2] = *max_element(x, x + 8, greater<float>());
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, b[2]) = WGTRACE_LOAD_AT({{[0-9]+}}, *::wgtrace::detail::recorded::max_element<'M', 'M', 'L'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(x, x + 8, greater<float>()));
  std::ranges::sort(std::span<float>(x, 8), {}, [](float e) { return -e; });
  // CHECK: ::wgtrace::detail::recorded::ranges::sort<'M', 'L', 'L'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(std::span<float>(x, 8), std::ranges::less{}, [](float e) { return -e; });
  std::ranges::fill(local, 1.0f);
  // CHECK: std::ranges::fill(local, 1.0f);
  std::move(x, x + 2, x + 4);
  // CHECK: ::wgtrace::detail::recorded::move<'M', 'M', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(x, x + 2, x + 4);
  float moved = std::move(b[3]);
  // CHECK: float moved = std::move(WGTRACE_LOAD_AT({{[0-9]+}}, b[3]));
  a[0] = moved + static_cast<float>(n);
  // std::fill reads a scalar value once, before its loop: recorded there.
  std::fill(x, x + 8, b[5]);
  // CHECK: ::wgtrace::detail::recorded::fill<'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(x, x + 8, WGTRACE_LOAD_AT({{[0-9]+}}, b[5]));

  // Not recorded, with a warning saying why.
  std::fill_n(x, 8, b[5]);
  // WARN: [[@LINE-1]]:21: warning: load of 'b[5]' is not traced: 'std::fill_n' reads it through a reference, inside the library (pass a local copy to record one load)
  std::copy(x, x + 2, std::back_inserter(v));
  // WARN: [[@LINE-1]]:3: warning: call 'std::copy(x, x + 2, std::back_inserter(v))' is not traced: it writes through an iterator of type '{{.*}}back_insert_iterator<{{.*}}>', which does not designate elements of memory: its element accesses are not recorded
  std::sort(s, s + n);
  // WARN: [[@LINE-1]]:3: warning: call 'std::sort(s, s + n)' is not traced: its elements, of type 'std::string', are not trivially copyable (wgtrace records elements by copying them, where the algorithm may move them): its element accesses are not recorded
  std::for_each(x, x + 8, bump);
  // WARN: [[@LINE-1]]:27: warning: what 'bump' writes to the elements of 'std::for_each' is not traced: it takes them by non-const reference but is not instrumented (each element it is handed is recorded as one load)
  // CHECK: ::wgtrace::detail::recorded::for_each<'M', 'M', 'L'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(x, x + 8, bump);
  SORT(x, x + 8);
  // WARN: [[@LINE-1]]:3: warning: call 'SORT(x, x + 8)' is not traced: 'std::sort' is spelled in a macro, where it cannot be redirected: its element accesses are not recorded
  std::copy<float *, float *>(x, x + 1, b);
  // WARN: [[@LINE-1]]:3: warning: call 'std::copy<float *, float *>(x, x + 1, b)' is not traced: it names its template arguments, which wgtrace's recording version of 'std::copy' cannot take: its element accesses are not recorded
  std::transform(std::execution::seq, x, x + 8, b, [](float e) { return e; });
  // WARN: [[@LINE-1]]:3: warning: call 'std::transform(std::execution::seq, x, x + 8, b, [](float e) { return e; })' is not traced: it has an execution policy, and the algorithm may run on other threads: the element accesses it makes itself are not recorded, and those of an instrumented callable only where it runs on the kernel's thread
  // The kernel's lambda is instrumented all the same: it records what it
  // does where the algorithm runs it on the kernel's thread (PRK's
  // nstream-pstl, whose libstdc++ without TBB runs every policy there).
  std::for_each(std::execution::par, x, x + 8, [&](float &e) { a[1] = e; });
  // WARN: [[@LINE-1]]:3: warning: call 'std::for_each(std::execution::par, x, x + 8, [&](float &e) { a[1] = e; })' is not traced: it has an execution policy{{.*}}
  // CHECK: std::for_each(std::execution::par, x, x + 8, [&](float &e) { WGTRACE_STORE_AT({{[0-9]+}}, a[1]) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, e); });
  std::fill(std::execution::seq, local, local + 4, 0.0f);
  // WARN-NOT: local + 4
}
