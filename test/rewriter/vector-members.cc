// push_back, emplace_back, resize, reserve, assign, insert and emplace on a
// std::vector of kernel memory with elements of scalar type record what
// libstdc++ reads and writes in them (the algorithms oracle's
// vector_members.cc checks the records): the vector is wrapped in
// recorded::vector, with the role of each argument ('M' a value or a range
// of kernel memory, '-' anything else). swap() exchanges the storage and
// touches no element: left as written, not reported. Other members that
// write the elements (erase, pop_back, shrink_to_fit), vectors of other
// element types, and a value of kernel memory given as an xvalue stay
// untraced: a warning, an error under --strict.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <string>
#include <utility>
#include <vector>

// CHECK: #include <wgtrace/algorithms.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::vector<double> &v,
                        const std::vector<double> &t, std::vector<int> *p,
                        const double *a, std::vector<std::string> &names) {
  double x = 2.0 * wg.id[0];
  v.push_back(t[0]);
  // CHECK: ::wgtrace::detail::recorded::vector<'M'>(WGTRACE_ACCESS_SITE(1), v).push_back(t[0]);
  v.push_back(x);
  // CHECK: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE(2), v).push_back(x);
  p->emplace_back(int(wg.id[0]));
  // CHECK: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE(3), p)->emplace_back(int(wg.id[0]));
  p->emplace_back();
  // CHECK: ::wgtrace::detail::recorded::vector<>(WGTRACE_ACCESS_SITE(4), p)->emplace_back();
  v.resize(v.size() + 4);
  // CHECK: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE(5), v).resize(v.size() + 4);
  v.resize(2, a[1]);
  // CHECK: ::wgtrace::detail::recorded::vector<'-', 'M'>(WGTRACE_ACCESS_SITE(6), v).resize(2, a[1]);
  v.reserve(16);
  // CHECK: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE(7), v).reserve(16);
  v.assign(3, a[0]);
  // CHECK: ::wgtrace::detail::recorded::vector<'-', 'M'>(WGTRACE_ACCESS_SITE(8), v).assign(3, a[0]);
  v.assign(a, a + 4);
  // CHECK: ::wgtrace::detail::recorded::vector<'M', 'M'>(WGTRACE_ACCESS_SITE(9), v).assign(a, a + 4);
  double local[2] = {x, x};
  v.assign(local, local + 2);
  // CHECK: ::wgtrace::detail::recorded::vector<'-', '-'>(WGTRACE_ACCESS_SITE(10), v).assign(local, local + 2);
  v.assign({x, a[2]});
  // CHECK: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE(11), v).assign({x, WGTRACE_LOAD_AT(12, a[2])});
  v.insert(v.begin() + 1, t[1]);
  // CHECK: ::wgtrace::detail::recorded::vector<'-', 'M'>(WGTRACE_ACCESS_SITE(13), v).insert(v.begin() + 1, t[1]);
  v.insert(v.end(), 2, x);
  // CHECK: ::wgtrace::detail::recorded::vector<'-', '-', '-'>(WGTRACE_ACCESS_SITE(14), v).insert(v.end(), 2, x);
  v.insert(v.begin(), t.begin(), t.end());
  // CHECK: ::wgtrace::detail::recorded::vector<'-', 'M', 'M'>(WGTRACE_ACCESS_SITE(15), v).insert(v.begin(), t.begin(), t.end());
  v.emplace(v.begin(), a[3]);
  // CHECK: ::wgtrace::detail::recorded::vector<'-', 'M'>(WGTRACE_ACCESS_SITE(16), v).emplace(v.begin(), a[3]);
  std::vector<double> mine(4);
  mine.push_back(x);
  // CHECK: std::vector<double> mine(::wgtrace::detail::recorded::vectorFilled<>(WGTRACE_ACCESS_SITE(17), 4));
  // CHECK: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE(18), mine).push_back(x);
  v.swap(mine);
  // CHECK: v.swap(mine);
  v.erase(v.begin());
  // WARN: [[@LINE-1]]:3: warning: call 'v.erase(v.begin())' is not traced: 'std::vector::erase' reads or writes the elements of 'v', kernel memory, in library code, which wgtrace does not record
  // STRICT: [[@LINE-2]]:3: error: call 'v.erase(v.begin())' is not traced
  v.pop_back();
  // WARN: [[@LINE-1]]:3: warning: call 'v.pop_back()' is not traced
  v.insert(v.begin(), std::move(mine[0]));
  // WARN: [[@LINE-1]]:3: warning: call 'v.insert(v.begin(), std::move(mine[0]))' is not traced
  names.push_back("x");
  // WARN: [[@LINE-1]]:3: warning: call 'names.push_back("x")' is not traced
}
