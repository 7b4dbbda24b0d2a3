// One template text that is an access in some instantiations and none in
// others (template_instances.cc has a call of a function pointer and of a
// function object): a value wrapper's operator+ whose `x.v + y.v` reads
// doubles in the innermost wrapper and calls the inner wrapper's
// operator+ in the outer ones (stepanov_abstraction.cpp's nesting), and a
// function reading the innermost value through them. Each instantiation
// records the loads its compiled code makes, no more.
#include "oracle.h"

#include <vector>

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
  std::vector<double> d(4), dout(2), wout(2);
  std::vector<W3> w(4);
  for (unsigned i = 0; i < 4; ++i) {
    d[i] = 0.5 * i;
    w[i].v.v.v = 1.5 * i;
  }
  oracle::buffer("d", d.data(), d.size());
  oracle::buffer("dout", dout.data(), dout.size());
  oracle::buffer("w", w.data(), w.size());
  oracle::buffer("wout", wout.data(), wout.size());
  oracle::run(add<double>, 2, d.data(), dout.data());
  oracle::run(add<W3>, 2, w.data(), wout.data());
  return oracle::finish();
}
