// One template text instantiated in ways that wrap it differently: a
// helper that walks a range through a pointer (what it points to may be
// the kernel's own stack) and through an iterator class whose operator*
// returns a reference, and a kernel calling a template parameter that is
// a function pointer taking doubles in one instantiation (the elements are
// read where the call is written) and a function object taking
// `const double &` in another (read inside its operator()). Every
// instantiation records its element loads, as the compiled code makes
// them, no more.
#include "oracle.h"

#include <vector>

constexpr unsigned N = 6;

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
  return s;
}

template <class It>
WGTRACE_DISPATCH void sum(const wgtrace::Workgroup &wg, It b, It e,
                          double *out) {
  out[wg.id[0]] = total(b, e) + *b;
}

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

int main() {
  std::vector<double> a(2 * N), out(4);
  std::vector<int> ranks(4);
  for (unsigned i = 0; i < 2 * N; ++i)
    a[i] = static_cast<double>((i * 7) % 5) - 1.5;
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::buffer("ranks", ranks.data(), ranks.size());
  oracle::run(sum<double *>, 2, a.data(), a.data() + N, out.data());
  oracle::run(sum<Cursor<double>>, 2, Cursor<double>{a.data() + N},
              Cursor<double>{a.data() + 2 * N}, out.data() + 2);
  oracle::run(rank<bool (*)(double, double)>, 2, a.data(), ranks.data(),
              &below);
  oracle::run(rank<Below>, 2, a.data(), ranks.data() + 2, Below{});
  return oracle::finish();
}
