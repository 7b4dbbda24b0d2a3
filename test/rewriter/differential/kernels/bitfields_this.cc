// Bit-fields through the implicit `this` of member functions the kernel
// calls (also in a lambda capturing this), of a class and of a base class
// at a non-zero offset: the bytes holding the field's bits, at the base's
// offset in the object.
#include "harness.h"

struct Pad {
  double d;
};
struct Bits {
  unsigned a : 3;
  unsigned b : 7;
  void set(unsigned v) {
    a = v;
    auto bump = [this] { b += 2; };
    bump();
  }
};
struct Derived : Pad, Bits {
  unsigned total() { return a + b; }
};

WGTRACE_DISPATCH void this_bits(const wgtrace::Workgroup &wg, Derived *d,
                                unsigned *out) {
  unsigned i = wg.id[0];
  d[i].set(i + 1);
  out[i] = d[i].total();
}

int main() {
  Derived d[2] = {};
  unsigned out[2] = {};
  wgtrace::dispatch(this_bits, wgtrace::Grid{2, 1, 1}, d, out);

  diff::buffer("d", d, 2);
  diff::buffer("out", out, 2);
  for (unsigned w = 0; w < 2; ++w) {
    size_t base = w * sizeof(Derived) + sizeof(Pad);
    diff::bytes({w}, 'S', "d", base, 1); // a = v
    diff::bytes({w}, 'L', "d", base, 2); // b += 2
    diff::bytes({w}, 'S', "d", base, 2);
    diff::bytes({w}, 'L', "d", base, 1); // a + b
    diff::bytes({w}, 'L', "d", base, 2);
    diff::store<unsigned>({w}, "out", w);
  }
  return diff::finish();
}
