// A text that is an access in some instantiations of its template and no
// access in others records in those only: its wrap tests, at compile
// time, which instantiation it runs in (WGTRACE_WHEN_LOAD_AT and the like,
// with kInstanceIn<the template's tag, the tags of the instantiations that
// make the access>). `less(x[i], x[0])` reads the elements where it is
// written when `less` is a function pointer taking doubles, and hands them
// on by reference when it is a functor taking `const double &` (whose
// operator() reads them); `c[i] += 1` is an update of an int in one
// instantiation and an atomic update of a std::atomic<int> in the other;
// in a member function template (PENNANT's Mesh::sumOnProc) `x += v[c]`
// reads v[c] for double and calls Vec's operator+= (which reads it) for
// Vec, and `out[p] = x` stores for double and calls Vec's operator=.
// Where the test cannot be written (in a member of a class template,
// whose tag would lack the class's arguments; for an instantiation whose
// argument is declared after the template), the wrap records in every
// instantiation, as the rewriter says.
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
  // CHECK: if (::wgtrace::detail::throughPointer(WGTRACE_INDIRECT_CALL(0), less)(WGTRACE_WHEN_LOAD_AT({{[0-9]+}}, (::wgtrace::detail::kInstanceIn<::wgtrace::detail::InstanceTag<Less>, ::wgtrace::detail::InstanceTag<bool (*)(double, double)>>), x[i]), WGTRACE_WHEN_LOAD_AT({{[0-9]+}}, (::wgtrace::detail::kInstanceIn<::wgtrace::detail::InstanceTag<Less>, ::wgtrace::detail::InstanceTag<bool (*)(double, double)>>), x[0])))
  out[wg.id[0]] = r;
}

template <class C>
WGTRACE_DISPATCH void bump(const wgtrace::Workgroup &wg, C *c) {
  c[wg.id[0]] += 1;
  // CHECK: WGTRACE_WHEN_UPDATE_AT({{[0-9]+}}, (::wgtrace::detail::kInstanceIn<::wgtrace::detail::InstanceTag<C>, ::wgtrace::detail::InstanceTag<int>>), WGTRACE_WHEN_ATOMIC_UPDATE_AT({{[0-9]+}}, (::wgtrace::detail::kInstanceIn<::wgtrace::detail::InstanceTag<C>, ::wgtrace::detail::InstanceTag<std::atomic<int>>>), c[wg.id[0]])) += 1;
}

struct Vec {
  double x, y;
  Vec &operator+=(const Vec &v) {
    x += v.x;
    y += v.y;
    return *this;
  }
  Vec &operator=(const Vec &v) {
    x = v.x;
    y = v.y;
    return *this;
  }
};

struct Mesh {
  int n;
  template <class T> void sum(const T *v, T *out, int p);
};

template <class T> void Mesh::sum(const T *v, T *out, int p) {
  T x = T();
  for (int c = 0; c < n; ++c)
    x += v[c];
  // CHECK: for (int c = 0; c < WGTRACE_LOAD_REF_AT({{[0-9]+}}, n); ++c)
  // CHECK-NEXT: x += WGTRACE_WHEN_LOAD_REF_AT({{[0-9]+}}, (::wgtrace::detail::kInstanceIn<::wgtrace::detail::InstanceTag<T>, ::wgtrace::detail::InstanceTag<double>>), v[c]);
  out[p] = x;
  // CHECK: WGTRACE_WHEN_STORE_REF_AT({{[0-9]+}}, (::wgtrace::detail::kInstanceIn<::wgtrace::detail::InstanceTag<T>, ::wgtrace::detail::InstanceTag<double>>), out[p]) = x;
}

template <class T> struct Box {
  T value;
  double twice() const { return value + value; }
  // CHECK: double twice() const { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, value) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, value); }
  // WARN: {{.*}}.cc:[[@LINE-2]]:33: warning: load of 'value' is recorded in every instantiation of its template, and 'Box<Half>::twice' makes no such load there (it hands the object on by reference, or accesses it otherwise): it records one all the same, outside the kernel's own stack, since its wrap cannot test which instantiation it runs in: it is in a member of a class template, which the test cannot tell apart by the class's arguments
  // WARN: {{.*}}.cc:[[@LINE-3]]:41: warning: load of 'value' is recorded {{.*}}
};

struct Half {
  double h;
};
double operator+(const Half &a, const Half &b) { return a.h + b.h; }

WGTRACE_DISPATCH void boxes(const wgtrace::Workgroup &wg, const Box<double> *d,
                            const Box<Half> *h, double *out) {
  out[wg.id[0]] = d->twice() + h->twice();
}

template <class Less>
WGTRACE_DISPATCH void least(const wgtrace::Workgroup &wg, const double *x,
                            int *out, Less less) {
  out[wg.id[0]] = less(x[1], x[0]) ? 1 : 0;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[wg.id[0]]) = less(WGTRACE_LOAD_AT({{[0-9]+}}, x[1]), WGTRACE_LOAD_AT({{[0-9]+}}, x[0])) ? 1 : 0;
  // WARN: {{.*}}.cc:[[@LINE-2]]:24: warning: load of 'x[1]' is recorded in every instantiation of its template, and 'least<Below>' makes no such load there {{.*}}: it records one all the same, outside the kernel's own stack, since its wrap cannot test which instantiation it runs in: an argument of 'least<Later>' cannot be named in the template's text (a local, unnamed or private type, a type declared after the template or its copy, a pointer or template template argument)
  // WARN: {{.*}}.cc:[[@LINE-3]]:30: warning: load of 'x[0]' is recorded {{.*}}
}

struct Later {
  bool operator()(double x, double y) const { return x < y; }
};

WGTRACE_DISPATCH void sums(const wgtrace::Workgroup &wg, Mesh *m,
                           const double *d, double *dout, const Vec *v,
                           Vec *vout) {
  m->sum(d, dout, wg.id[0]);
  m->sum(v, vout, wg.id[0]);
}

void run(const double *a, int *n, std::atomic<int> *hits) {
  wgtrace::dispatch(rank<bool (*)(double, double)>, wgtrace::Grid{1, 1, 1}, a,
                    n, &below);
  wgtrace::dispatch(rank<Below>, wgtrace::Grid{1, 1, 1}, a, n, Below{});
  wgtrace::dispatch(bump<int>, wgtrace::Grid{1, 1, 1}, n);
  wgtrace::dispatch(bump<std::atomic<int>>, wgtrace::Grid{1, 1, 1}, hits);
  wgtrace::dispatch(least<Below>, wgtrace::Grid{1, 1, 1}, a, n, Below{});
  wgtrace::dispatch(least<Later>, wgtrace::Grid{1, 1, 1}, a, n, Later{});
}
