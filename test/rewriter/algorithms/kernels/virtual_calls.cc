// Virtual calls in a kernel, as ray.cpp of llvm-test-suite makes them:
// each reads the object's virtual table pointer (recorded, 8 bytes at the
// object) and runs its class's override, instrumented in place. Objects
// of kernel memory reached through a pointer and a reference, a call
// whose arguments read kernel memory, an override calling another
// virtual function through `this->` and through the implicit `this`, a
// call with no argument, a qualified call (no dispatch), and
// an object of the kernel's own stack (nothing recorded).
#include "oracle.h"

#include <cstring>
#include <vector>

struct Shape {
  virtual ~Shape() {}
  virtual double area(double scale) const = 0;
  virtual double weight() const { return 1.0; }
};

struct Square : Shape {
  double side;
  explicit Square(double s) : side(s) {}
  double area(double scale) const override {
    return side * side * scale * weight();
  }
};

struct Ring : Shape {
  double inner, outer;
  Ring(double i, double o) : inner(i), outer(o) {}
  double area(double scale) const override {
    return (outer * outer - inner * inner) * 3.0 * scale * this->weight();
  }
  double weight() const override { return Shape::weight() + inner; }
};

double measure(const Shape &s, const double *scales, int i) {
  return s.area(scales[i]);
}

WGTRACE_DISPATCH void total(const wgtrace::Workgroup &wg, Shape *const *shapes,
                            const double *scales, double *out) {
  unsigned i = wg.id[0];
  double sum = shapes[i]->area(scales[i]);
  sum += measure(*shapes[i + 1], scales, i + 1);
  Square local(2.0);
  sum += local.area(1.0);
  out[i] = sum + shapes[i]->weight();
}

int main() {
  Square a(1.5), c(0.5);
  Ring b(0.5, 2.0), d(1.0, 1.5);
  static Shape *shapes[] = {&a, &b, &c, &d, &a};
  std::vector<double> scales = {1.0, 2.0, 0.5, 4.0, 3.0};
  std::vector<double> out(4);
  oracle::buffer("a", &a, 1);
  oracle::buffer("b", &b, 1);
  oracle::buffer("c", &c, 1);
  oracle::buffer("d", &d, 1);
  oracle::buffer("shapes", shapes, 5);
  oracle::buffer("scales", scales.data(), scales.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::run(total, 4, shapes, scales.data(), out.data());
  // The addresses the virtual table pointers and shapes hold differ
  // between the two builds: not compared (the objects are destroyed
  // without them, by direct calls).
  for (Shape *s : {static_cast<Shape *>(&a), static_cast<Shape *>(&b),
                   static_cast<Shape *>(&c), static_cast<Shape *>(&d)})
    std::memset(static_cast<void *>(s), 0, sizeof(void *));
  std::memset(static_cast<void *>(shapes), 0, sizeof shapes);
  return oracle::finish();
}
