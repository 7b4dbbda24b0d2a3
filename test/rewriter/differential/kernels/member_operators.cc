// Member operators and getters of this file applied to kernel memory, as
// real code's vec3 writes them: `out[i] += v`, `out[i] *= t` (its stores
// are all to its object), `out[i] /= t` (through `*this *= 1 / t`), `-v`,
// `v[k]` by value and the one-field getter `v.x()` are helpers, their
// accesses of the object recorded as accesses of out[i]'s or in[i]'s
// bytes, at the body's expressions. On a local, they touch the kernel's
// stack, not memory of the trace. The same members of a project header
// (member_copies.h, as RayTracing's vec3.h) are copied as free functions
// taking the object, `img[i] += s[i]` becoming a call of the copy: their
// accesses are recorded at the header's expressions; a getter calling
// another through `this` calls its copy.
#include "harness.h"
#include "member_copies.h"

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

WGTRACE_DISPATCH void accumulate_header(const wgtrace::Workgroup &wg,
                                        rt::vec3 *img, const rt::vec3 *s,
                                        double *hd) {
  unsigned i = wg.id[0];
  img[i] += s[i];
  img[i] *= 2.0;
  img[i] /= 4.0;
  rt::vec3 local = s[i]; // @copy
  local *= 3.0;
  hd[i] = img[i].x() + (s + i)->norm2() + local.x(); // @hd
}

int main() {
  vec3 in[2] = {{{1, 2, 3}}, {{4, 5, 6}}};
  vec3 out[2] = {{{10, 20, 30}}, {{40, 50, 60}}};
  double d[2] = {};
  wgtrace::dispatch(accumulate, wgtrace::Grid{2, 1, 1}, in, out, d);
  rt::vec3 img[2] = {{{10, 20, 30}}, {{40, 50, 60}}};
  rt::vec3 s[2] = {{{1, 2, 3}}, {{4, 5, 6}}};
  double hd[2] = {};
  wgtrace::dispatch(accumulate_header, wgtrace::Grid{2, 1, 1}, img, s, hd);

  diff::buffer("in", in, 2);
  diff::buffer("out", out, 2);
  diff::buffer("d", d, 2);
  diff::buffer("img", img, 2);
  diff::buffer("s", s, 2);
  diff::buffer("hd", hd, 2);
  auto Element = [](unsigned W, char Kind, const char *Name, unsigned K,
                    std::string Site) {
    diff::bytes({W}, Kind, Name, W * sizeof(vec3) + K * sizeof(double),
                sizeof(double), strdup(Site.c_str()));
  };
  // Obj += Arg, Obj *= 2.0, Obj /= 4.0 (through *=), the sites marked
  // Prefix: e[k] += v.e[k], then twice e[k] *= t.
  auto Compound = [&](unsigned W, const char *Obj, const char *Arg,
                      std::string Prefix) {
    for (unsigned K = 0; K < 3; ++K) {
      std::string Add = Prefix + "add" + std::to_string(K) + ":";
      std::string E = "e[" + std::to_string(K) + "]";
      Element(W, 'L', Arg, K, Add + "v." + E);
      Element(W, 'L', Obj, K, Add + E);
      Element(W, 'S', Obj, K, Add + E);
    }
    for (int Twice = 0; Twice < 2; ++Twice)
      for (unsigned K = 0; K < 3; ++K) {
        std::string Mul = Prefix + "mul" + std::to_string(K) + ":e[" +
                          std::to_string(K) + "]";
        Element(W, 'L', Obj, K, Mul);
        Element(W, 'S', Obj, K, Mul);
      }
  };
  for (unsigned w = 0; w < 2; ++w) {
    Compound(w, "out", "in", "");
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

    Compound(w, "img", "s", "h");
    diff::load<vec3>({w}, "s", w, "copy:s[i]"); // local = s[i]
    Element(w, 'L', "img", 0, "hx:e[0]");       // img[i].x()
    for (unsigned K = 0; K < 3; ++K)             // (s + i)->norm2()
      for (int Twice = 0; Twice < 2; ++Twice)
        Element(w, 'L', "s", K, "hlen:e[" + std::to_string(K) + "]");
    diff::store<double>({w}, "hd", w, "hd:hd[i]");
  }
  return diff::finish();
}
