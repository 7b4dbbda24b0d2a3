// The elements of a temporary container are where its storage is: a
// std::vector's on the heap, kernel memory, as a local vector's are.
// `make()[i]`, `std::vector<int>(a, a + n)[2]`, `.at(i)`, `.front()` and a
// range-for over a temporary read them: recorded. Before, a temporary was
// taken for the kernel's own whatever it held, and these reads went
// unrecorded in silence. A std::string's characters may be in the
// temporary itself (a short one): the runtime tells (_REF_AT).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <array>
#include <string>
#include <vector>

static std::vector<int> make(const int *a, int n) {
  return std::vector<int>(a, a + n);
}

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const int *a, int *out,
                        std::string *names) {
  out[0] = make(a, 3)[1];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[0]) = WGTRACE_LOAD_AT({{[0-9]+}}, make(a, 3)[1]);
  out[1] = std::vector<int>(a, a + 4)[2];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[1]) = WGTRACE_LOAD_AT({{[0-9]+}}, std::vector<int>(::wgtrace::detail::recorded::vectorFrom<'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), a, a + 4))[2]);
  out[2] = std::vector<int>(3, a[0]).at(1);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[2]) = WGTRACE_LOAD_AT({{[0-9]+}}, std::vector<int>(::wgtrace::detail::recorded::vectorFilled<'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), 3, a[0])).at(1));
  out[3] = make(a, 2).front() + make(a, 2).data()[1];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[3]) = WGTRACE_LOAD_AT({{[0-9]+}}, make(a, 2).front()) + WGTRACE_LOAD_AT({{[0-9]+}}, make(a, 2).data()[1]);
  for (int x : make(a, 2))
    out[4] += x;
  // CHECK: for (int x : ::wgtrace::detail::loads(WGTRACE_ACCESS_SITE({{[0-9]+}}), make(a, 2)))
  // CHECK-NEXT: WGTRACE_UPDATE_AT({{[0-9]+}}, out[4]) += x;
  out[5] = std::string(names[0])[1];
  // WARN: [[@LINE-1]]:12: warning: call 'std::string(names[0])' is not traced: construction of 'std::basic_string' is given kernel memory ('names[0]') by pointer or reference
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[5]) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, std::string(names[0])[1]);
  // Held in the temporary itself: not memory.
  out[6] = std::array<int, 2>{{1, 2}}[1] + int(wg.id[0]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[6]) = std::array<int, 2>{{[{][{]}}1, 2}}[1] + int(wg.id[0]);
}
