// std::vector<T> v(first, last) of elements of scalar type, from two
// pointers or a vector's iterators over the same elements, constructs the
// vector in library code: it reads the range and writes the new storage
// (on the heap: kernel memory). The two arguments are wrapped in
// recorded::vectorFrom<Role>, which constructs the vector and records the
// loads (Role 'M': the range is kernel memory) and the stores in
// libstdc++'s order (the algorithms oracle's vector_ranges.cc checks the
// records). Before, a range of kernel memory given by pointers was
// reported untraced, and the stores into the new storage, and the whole
// construction from a vector's iterators, went unrecorded in silence. A
// container of another kind or element type built from iterators into
// kernel memory is reported untraced (it was silent). std::vector<T> v(n)
// and v(n, x) go to recorded::vectorFilled, which records the stores into
// the new storage (and the read of x when it is kernel memory): they were
// silent (v(n, a[1]) reported).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <list>
#include <vector>

// CHECK: #include <wgtrace/algorithms.h>

// A constructor of the file the kernel runs is instrumented as a helper.
struct Holder {
  std::vector<float> kept;
  Holder(const float *a, int n) : kept(a, a + n) {}
  // CHECK: Holder(const float *a, int n) : kept(::wgtrace::detail::recorded::vectorFrom<'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), a, a + n)) {}
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const float *a, int n,
                        const std::vector<float> &t, float *out) {
  std::vector<float> w(a, a + n);
  // CHECK: std::vector<float> w(::wgtrace::detail::recorded::vectorFrom<'M'>(WGTRACE_ACCESS_SITE(1), a, a + n));
  std::vector<float> u(t.begin() + 1, t.end());
  // CHECK: std::vector<float> u(::wgtrace::detail::recorded::vectorFrom<'M'>(WGTRACE_ACCESS_SITE(2), t.begin() + 1, t.end()));
  float local[3] = {1.0f, 2.0f, float(wg.id[0])};
  std::vector<float> l{local, local + 3};
  // CHECK: std::vector<float> l{::wgtrace::detail::recorded::vectorFrom<'-'>(WGTRACE_ACCESS_SITE(3), local, local + 3)};
  auto *p = new std::vector<float>(u.cbegin(), u.cend());
  // WARN: [[@LINE-1]]:13: warning: store of 'new std::vector<float>(u.cbegin(), u.cend())' is not traced: the arguments of 'std::_Vector_base<float, std::allocator<float>>::_Vector_base' are not only constants and values of the caller's own stack
  // CHECK: auto *p = new std::vector<float>(::wgtrace::detail::recorded::vectorFrom<'M'>(WGTRACE_ACCESS_SITE(4), u.cbegin(), u.cend()));
  out[0] = float(std::vector<float>(a + 1, a + 2).size()) + w[0] + l[1] + (*p)[0];
  // CHECK: WGTRACE_STORE_AT(5, out[0]) = float(std::vector<float>(::wgtrace::detail::recorded::vectorFrom<'M'>(WGTRACE_ACCESS_SITE(6), a + 1, a + 2)).size()) + WGTRACE_LOAD_AT(7, w[0]) + WGTRACE_LOAD_AT(8, l[1]) + WGTRACE_LOAD_AT(9, (*p)[0]);
  delete p;
  // A count, a count and a value: the stores (and the value's read, when
  // it is kernel memory) are recorded; they were silent, or reported for a
  // value of kernel memory.
  std::vector<float> zeros(n);
  // CHECK: std::vector<float> zeros(::wgtrace::detail::recorded::vectorFilled<>(WGTRACE_ACCESS_SITE({{[0-9]+}}), n));
  std::vector<float> filled(3, a[1]);
  // CHECK: std::vector<float> filled(::wgtrace::detail::recorded::vectorFilled<'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), 3, a[1]));
  float x = local[1];
  std::vector<float> fromLocal(4, x);
  // CHECK: std::vector<float> fromLocal(::wgtrace::detail::recorded::vectorFilled<'-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), 4, x));
  out[2] = zeros[0] + filled[2] + fromLocal[3];
  Holder h(a, n);
  // Another element type, another container: reported, as before for a
  // pointer range; from iterators they were silent.
  std::vector<double> wide(t.begin(), t.end());
  // WARN: [[@LINE-1]]:23: warning: call 'wide(t.begin(), t.end())' is not traced: construction of 'std::vector' is given kernel memory ('t.begin()') through an iterator and reads or writes it in library code, which wgtrace does not record
  // STRICT: [[@LINE-2]]:23: error: call 'wide(t.begin(), t.end())' is not traced
  std::list<float> linked(t.begin(), t.end());
  // WARN: [[@LINE-1]]:20: warning: call 'linked(t.begin(), t.end())' is not traced: construction of 'std::list' is given kernel memory ('t.begin()') through an iterator
  std::vector<double> fromPointers(a, a + 2);
  // WARN: [[@LINE-1]]:23: warning: call 'fromPointers(a, a + 2)' is not traced: construction of 'std::vector' is given kernel memory ('a') by pointer or reference
  // A type deduced from the arguments (C++17's class template argument
  // deduction) needs them as written: reported.
  std::vector deduced(a, a + 2);
  // WARN: [[@LINE-1]]:15: warning: call 'deduced(a, a + 2)' is not traced: construction of 'std::vector' is given kernel memory ('a') by pointer or reference
  auto *made = new std::vector(t.begin(), t.end());
  // WARN: [[@LINE-1]]:16: warning: store of 'new std::vector(t.begin(), t.end())' is not traced
  // WARN: [[@LINE-2]]:20: warning: call 'std::vector(t.begin(), t.end())' is not traced: construction of 'std::vector' is given kernel memory ('t.begin()') through an iterator
  out[1] = float(wide.size() + linked.size() + fromPointers.size() +
                 deduced.size() + made->size()) +
           h.kept[0];
  delete made;
}
