// A text that is an access in some instantiations of its template and no
// access in others is wrapped for all of them (one text serves every
// instantiation), so the others record it too: the rewriter says so.
// `less(x[i], x[0])` reads the elements where it is written when `less` is
// a function pointer taking doubles, and hands them on by reference when
// it is a functor taking `const double &` (whose operator() reads them);
// `c[i] += 1` is an update of an int in one instantiation and an atomic
// update of a std::atomic<int> in the other.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <atomic>

bool below(double x, double y) { return x < y; }

struct Below {
  bool operator()(const double &x, const double &y) const { return x < y; }
};

template <class Less>
WGTRACE_DISPATCH void rank(const wgtrace::Workgroup &wg, const double *x,
                           int *out, Less less) {
  int r = 0;
  for (unsigned i = 1; i < 4; ++i)
    if (less(x[i], x[0]))
      ++r;
  // CHECK: if (::wgtrace::detail::throughPointer(WGTRACE_INDIRECT_CALL(0), less)(WGTRACE_LOAD_AT({{[0-9]+}}, x[i]), WGTRACE_LOAD_AT({{[0-9]+}}, x[0])))
  // WARN: {{.*}}.cc:29:14: warning: load of 'x[i]' is recorded in every instantiation of its template, and 'rank<Below>' makes no such load there (it hands the object on by reference, or accesses it otherwise): it records one all the same, outside the kernel's own stack, since one text cannot be wrapped for some instantiations only
  // WARN: {{.*}}.cc:29:20: warning: load of 'x[0]' is recorded in every instantiation of its template, and 'rank<Below>' makes no such load there {{.*}}
  out[wg.id[0]] = r;
}

template <class C>
WGTRACE_DISPATCH void bump(const wgtrace::Workgroup &wg, C *c) {
  c[wg.id[0]] += 1;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, c[wg.id[0]])) += 1;
  // WARN: {{.*}}.cc:39:3: warning: update of 'c[wg.id[0]]' is recorded in every instantiation of its template, and 'bump<std::atomic<int>>' makes no such update there {{.*}}
}

void run(const double *a, int *n, std::atomic<int> *hits) {
  wgtrace::dispatch(rank<bool (*)(double, double)>, wgtrace::Grid{1, 1, 1}, a,
                    n, &below);
  wgtrace::dispatch(rank<Below>, wgtrace::Grid{1, 1, 1}, a, n, Below{});
  wgtrace::dispatch(bump<int>, wgtrace::Grid{1, 1, 1}, n);
  wgtrace::dispatch(bump<std::atomic<int>>, wgtrace::Grid{1, 1, 1}, hits);
}
