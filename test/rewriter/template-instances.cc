// One text of a template, instantiated with a pointer and with an iterator
// class: `*first` reads through a helper's pointer parameter in one (what
// it points to may be the kernel's own stack: WGTRACE_LOAD_REF_AT) and
// through a call that returns a reference in the other (WGTRACE_LOAD_AT).
// The _REF_AT form records kernel memory as the plain one does, so the
// text gets it and both instantiations record their loads; neither is
// dropped as a conflict. A call of a template parameter that is a function
// pointer in one instantiation and a function object in another goes
// through throughPointer, which hands a function object back as it is.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %count 0 < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

template <class T> struct Cursor {
  T *at;
  T &operator*() const { return *at; }
};

template <class T> Cursor<T> &operator++(Cursor<T> &c) {
  ++c.at;
  return c;
}

template <class T> bool operator!=(const Cursor<T> &x, const Cursor<T> &y) {
  return x.at != y.at;
}

template <class It> double total(It first, It last) {
  double s = 0;
  for (; first != last; ++first)
    s += *first;
  // CHECK: s += WGTRACE_LOAD_REF_AT({{[0-9]+}}, *first);
  return s;
}

template <class It>
WGTRACE_DISPATCH void sum(const wgtrace::Workgroup &wg, It b, It e,
                          double *out) {
  out[wg.id[0]] = total(b, e);
}

bool below(double x, double y) { return x < y; }

struct Below {
  bool operator()(double x, double y) const { return x < y; }
};

template <class Less>
WGTRACE_DISPATCH void count(const wgtrace::Workgroup &wg, const double *a,
                            int *out, Less less) {
  out[wg.id[0]] = less(a[0], a[1]) ? 1 : 0;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[wg.id[0]]) = ::wgtrace::detail::throughPointer(WGTRACE_INDIRECT_CALL(0), less)(WGTRACE_LOAD_AT({{[0-9]+}}, a[0]), WGTRACE_LOAD_AT({{[0-9]+}}, a[1])) ? 1 : 0;
}

void run(double *a, double *out, int *n) {
  wgtrace::dispatch(sum<double *>, wgtrace::Grid{1, 1, 1}, a, a + 4, out);
  wgtrace::dispatch(sum<Cursor<double>>, wgtrace::Grid{1, 1, 1},
                    Cursor<double>{a}, Cursor<double>{a + 4}, out);
  wgtrace::dispatch(count<bool (*)(double, double)>, wgtrace::Grid{1, 1, 1}, a,
                    n, &below);
  wgtrace::dispatch(count<Below>, wgtrace::Grid{1, 1, 1}, a, n, Below{});
}
