// Member operators and getters of this file applied to kernel memory, as
// real code's vec3 writes them: `out[i] += v`, `out[i] *= t` (its stores
// are all to its object), `out[i] /= t` (through `*this *= 1 / t`), `-v`,
// `v[k]` by value and the one-field getter `v.x()` are helpers, their
// accesses of the object recorded as accesses of out[i]'s or in[i]'s
// bytes, at the body's expressions. On a local, they touch the kernel's
// stack, not memory of the trace.
#include "harness.h"

#include <cstring>
#include <string>

struct vec3 {
  double e[3];
  double x() const { return e[0]; }                 // @x
  double operator[](int k) const { return e[k]; }   // @at
  vec3 operator-() const { return vec3{{-e[0], -e[1], -e[2]}}; } // @neg
  vec3 &operator+=(const vec3 &v) {
    e[0] += v.e[0]; // @add0
    e[1] += v.e[1]; // @add1
    e[2] += v.e[2]; // @add2
    return *this;
  }
  vec3 &operator*=(double t) {
    e[0] *= t; // @mul0
    e[1] *= t; // @mul1
    e[2] *= t; // @mul2
    return *this;
  }
  vec3 &operator/=(double t) { return *this *= 1 / t; }
};

WGTRACE_DISPATCH void accumulate(const wgtrace::Workgroup &wg, const vec3 *in,
                                 vec3 *out, double *d) {
  unsigned i = wg.id[0];
  out[i] += in[i];
  out[i] *= 2.0;
  out[i] /= 4.0;
  vec3 local{{1, 2, 3}};
  local += -in[i];
  out[i] += local;
  d[i] = in[i].x() + out[i][2] + local.x(); // @d
}

int main() {
  vec3 in[2] = {{{1, 2, 3}}, {{4, 5, 6}}};
  vec3 out[2] = {{{10, 20, 30}}, {{40, 50, 60}}};
  double d[2] = {};
  wgtrace::dispatch(accumulate, wgtrace::Grid{2, 1, 1}, in, out, d);

  diff::buffer("in", in, 2);
  diff::buffer("out", out, 2);
  diff::buffer("d", d, 2);
  auto Element = [](unsigned W, char Kind, const char *Name, unsigned K,
                    std::string Site) {
    diff::bytes({W}, Kind, Name, W * sizeof(vec3) + K * sizeof(double),
                sizeof(double), strdup(Site.c_str()));
  };
  for (unsigned w = 0; w < 2; ++w) {
    for (unsigned K = 0; K < 3; ++K) { // out[i] += in[i]: e[k] += v.e[k]
      std::string Add = "add" + std::to_string(K) + ":";
      std::string E = "e[" + std::to_string(K) + "]";
      Element(w, 'L', "in", K, Add + "v." + E);
      Element(w, 'L', "out", K, Add + E);
      Element(w, 'S', "out", K, Add + E);
    }
    for (int Twice = 0; Twice < 2; ++Twice) // *= 2.0, then /= 4.0's *=
      for (unsigned K = 0; K < 3; ++K) {
        std::string Mul = "mul" + std::to_string(K) + ":e[" +
                          std::to_string(K) + "]";
        Element(w, 'L', "out", K, Mul);
        Element(w, 'S', "out", K, Mul);
      }
    for (unsigned K = 0; K < 3; ++K) { // -in[i]
      Element(w, 'L', "in", K, "neg:e[" + std::to_string(K) + "]");
    }
    for (unsigned K = 0; K < 3; ++K) { // out[i] += local: only out[i]'s
      std::string Add = "add" + std::to_string(K) + ":e[" +
                        std::to_string(K) + "]";
      Element(w, 'L', "out", K, Add);
      Element(w, 'S', "out", K, Add);
    }
    Element(w, 'L', "in", 0, "x:e[0]");  // in[i].x()
    Element(w, 'L', "out", 2, "at:e[k]"); // out[i][2]
    diff::store<double>({w}, "d", w, "d:d[i]");
  }
  return diff::finish();
}
