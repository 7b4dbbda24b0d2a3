// One template text that is an access in some instantiations and none in
// others: a kernel calling a template parameter that is a function
// pointer taking doubles (the elements are read where the call is
// written) in one instantiation and a function object taking
// `const double &` (read inside its operator()) in another, and a value
// wrapper's operator+ whose `x.v + y.v` reads doubles in the innermost
// wrapper and calls the inner wrapper's operator+ in the outer ones
// (stepanov_abstraction.cpp's nesting), and a function reading the
// innermost value through them. Each instantiation records the
// loads its compiled code makes, no more.
#include "oracle.h"

#include <vector>

constexpr unsigned N = 6;

bool below(double x, double y) { return x < y; }

struct Below {
  bool operator()(const double &x, const double &y) const { return x < y; }
};

template <class Less>
WGTRACE_DISPATCH void rank(const wgtrace::Workgroup &wg, const double *a,
                           int *out, Less less) {
  const double *x = a + wg.id[0] * N;
  int r = 0;
  for (unsigned i = 1; i < N; ++i)
    if (less(x[i], x[0]))
      ++r;
  out[wg.id[0]] = r;
}

template <class T> struct Wrap {
  T v;
};

template <class T> Wrap<T> operator+(const Wrap<T> &x, const Wrap<T> &y) {
  return Wrap<T>{x.v + y.v};
}

double value(double x) { return x; }

template <class T> double value(const Wrap<T> &x) { return value(x.v); }

using W3 = Wrap<Wrap<Wrap<double>>>;

template <class T>
WGTRACE_DISPATCH void add(const wgtrace::Workgroup &wg, const T *a,
                          double *out) {
  unsigned i = wg.id[0];
  out[i] = value(a[2 * i] + a[2 * i + 1]);
}

int main() {
  std::vector<double> a(2 * N);
  std::vector<int> ranks(4);
  for (unsigned i = 0; i < 2 * N; ++i)
    a[i] = static_cast<double>((i * 7) % 5) - 1.5;
  std::vector<double> d(4), dout(2), wout(2);
  std::vector<W3> w(4);
  for (unsigned i = 0; i < 4; ++i) {
    d[i] = 0.5 * i;
    w[i].v.v.v = 1.5 * i;
  }
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("ranks", ranks.data(), ranks.size());
  oracle::buffer("d", d.data(), d.size());
  oracle::buffer("dout", dout.data(), dout.size());
  oracle::buffer("w", w.data(), w.size());
  oracle::buffer("wout", wout.data(), wout.size());
  oracle::run(rank<bool (*)(double, double)>, 2, a.data(), ranks.data(),
              &below);
  oracle::run(rank<Below>, 2, a.data(), ranks.data() + 2, Below{});
  oracle::run(add<double>, 2, d.data(), dout.data());
  oracle::run(add<W3>, 2, w.data(), wout.data());
  return oracle::finish();
}
