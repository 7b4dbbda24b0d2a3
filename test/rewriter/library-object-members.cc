// A member function of a standard class that is no container (std::pair,
// std::tuple, std::optional, std::bitset, std::unique_ptr,
// std::shared_ptr, std::function) called on an object that is kernel
// memory reads or writes that object's own bytes in library code: each is
// untraced (warning, table entry, --strict error); they were silent. What
// is recorded stays so: a trivial assignment (std::optional<int>'s `o = 7`
// converts and moves trivially), std::get, std::optional's `*o`, which
// hands out its payload, std::bitset's size(), the kernel's own objects.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %cxx -fsyntax-only -std=c++17 -Wall -Wextra -Werror -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <bitset>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

using P = std::pair<int, double>;
using T = std::tuple<int, double>;

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "pairs", "p[i] = {a, 1.0}", "'std::pair::operator=' reads or writes 'p[i]', kernel memory, in library code, which wgtrace does not record"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "pairs", "t[i] = std::make_tuple(a, b)", "'std::tuple::operator=' reads or writes 't[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 12, "optionals", "o[i].has_value()", "'std::optional::has_value' reads or writes 'o[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 11, "optionals", "o[i].value_or(4)", "'std::optional::value_or' reads or writes 'o[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "optionals", "o[i].emplace(5)", "'std::optional::emplace' reads or writes 'o[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 7, "optionals", "o[i]", "'std::optional::operator bool' reads or writes 'o[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "optionals", "o[i] = std::nullopt", "'std::optional::operator=' reads or writes 'o[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "bitsets", "b->set(3)", "'std::bitset::set' reads or writes 'b', kernel memory, in library code, which wgtrace does not record"},
// CHECK-NEXT: {"{{.*}}", [[#]], 12, "bitsets", "b->test(3)", "'std::bitset::test' reads or writes 'b', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "bitsets", "(*b)[5]", "'std::bitset::operator[]' reads or writes '*b', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 13, "bitsets", "b->count()", "'std::bitset::count' reads or writes 'b', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 13, "pointers", "u[i].get()", "'std::unique_ptr::get' reads or writes 'u[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "pointers", "u[i].reset()", "'std::unique_ptr::reset' reads or writes 'u[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 13, "pointers", "*s[i]", "'std::shared_ptr::operator*' reads or writes 's[i]', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 18, "pointers", "f[i]", "'std::function::operator bool' reads or writes 'f[i]', {{.*}}"},
// CHECK-NEXT: };

WGTRACE_DISPATCH void pairs(const wgtrace::Workgroup &wg, P *p, T *t) {
  size_t i = wg.id[0];
  int a = std::get<0>(p[i]);
  // CHECK: int a = WGTRACE_LOAD_AT({{[0-9]+}}, std::get<0>(p[i]));
  // std::pair's and std::tuple's assignments are not trivial.
  p[i] = {a, 1.0};
  // WARN: [[@LINE-1]]:3: warning: call 'p[i] = {a, 1.0}' is not traced: 'std::pair::operator=' reads or writes 'p[i]', kernel memory, in library code, which wgtrace does not record
  // STRICT: [[@LINE-2]]:3: error: call 'p[i] = {a, 1.0}' is not traced
  double b = std::get<1>(t[i]);
  // CHECK: double b = WGTRACE_LOAD_AT({{[0-9]+}}, std::get<1>(t[i]));
  t[i] = std::make_tuple(a, b);
  // WARN: [[@LINE-1]]:3: warning: call 't[i] = std::make_tuple(a, b)' is not traced: 'std::tuple::operator=' reads or writes 't[i]'
  P mine{1, 2.0};
  mine = {a, b};
  // CHECK: mine = {a, b};
}

WGTRACE_DISPATCH void optionals(const wgtrace::Workgroup &wg,
                                std::optional<int> *o) {
  size_t i = wg.id[0];
  int a = *o[i];
  // CHECK: int a = WGTRACE_LOAD_AT({{[0-9]+}}, *o[i]);
  bool h = o[i].has_value();
  // WARN: [[@LINE-1]]:12: warning: call 'o[i].has_value()' is not traced: 'std::optional::has_value' reads or writes 'o[i]'
  int w = o[i].value_or(4);
  // WARN: [[@LINE-1]]:11: warning: call 'o[i].value_or(4)' is not traced
  o[i].emplace(5);
  // WARN: [[@LINE-1]]:3: warning: call 'o[i].emplace(5)' is not traced
  o[i] = 7;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, o[i]) = 7;
  if (o[i])
    // WARN: [[@LINE-1]]:7: warning: call 'o[i]' is not traced: 'std::optional::operator bool' reads or writes 'o[i]'
    a += w + h;
  o[i] = std::nullopt;
  // WARN: [[@LINE-1]]:3: warning: call 'o[i] = std::nullopt' is not traced: 'std::optional::operator=' reads or writes 'o[i]'
  // The copy of std::nullopt, of an empty class, reads nothing.
  // CHECK: o[i] = std::nullopt;
  std::optional<int> mine = a;
  mine.reset();
  // CHECK: mine.reset();
}

WGTRACE_DISPATCH void bitsets(const wgtrace::Workgroup &wg, std::bitset<64> *b,
                              int *out) {
  size_t i = wg.id[0];
  b->set(3);
  // WARN: [[@LINE-1]]:3: warning: call 'b->set(3)' is not traced: 'std::bitset::set' reads or writes 'b', kernel memory, in library code, which wgtrace does not record
  out[i] = b->test(3);
  // WARN: [[@LINE-1]]:12: warning: call 'b->test(3)' is not traced
  (*b)[5] = true;
  // WARN: [[@LINE-1]]:3: warning: call '(*b)[5]' is not traced: 'std::bitset::operator[]' reads or writes '*b'
  out[i] += b->count() + b->size();
  // WARN: [[@LINE-1]]:13: warning: call 'b->count()' is not traced
}

WGTRACE_DISPATCH void pointers(const wgtrace::Workgroup &wg,
                               std::unique_ptr<int> *u, std::shared_ptr<int> *s,
                               std::function<int(int)> *f, int *out) {
  size_t i = wg.id[0];
  out[i] = *u[i].get();
  // WARN: [[@LINE-1]]:13: warning: call 'u[i].get()' is not traced: 'std::unique_ptr::get' reads or writes 'u[i]'
  // The default argument is the library's own, not the kernel memory given.
  u[i].reset();
  // WARN: [[@LINE-1]]:3: warning: call 'u[i].reset()' is not traced: 'std::unique_ptr::reset' reads or writes 'u[i]'
  out[i] += *s[i];
  // WARN: [[@LINE-1]]:13: warning: call '*s[i]' is not traced: 'std::shared_ptr::operator*' reads or writes 's[i]'
  out[i] += bool(f[i]);
  // WARN: [[@LINE-1]]:18: warning: call 'f[i]' is not traced: 'std::function::operator bool' reads or writes 'f[i]'
}

// An object of an empty class (std::allocator) has no bytes for its
// members to read or write: not reported.
WGTRACE_DISPATCH void empties(const wgtrace::Workgroup &wg,
                              std::allocator<int> *al, long *out) {
  int *p = al[wg.id[0]].allocate(1);
  out[wg.id[0]] = p != nullptr;
}
