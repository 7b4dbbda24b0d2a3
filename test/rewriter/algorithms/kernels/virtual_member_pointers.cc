// Calls through member function pointers to virtual functions, as
// llvm-test-suite's oopack_v1p8.cpp runs each benchmark's C and OOP
// styles (`(this->*function)()`): the call reads the object's virtual
// table pointer (8 bytes at the object, once the object and the pointer
// are evaluated, before the arguments) and runs the override of the
// object's class, instrumented in place since the file defines every
// override. A pointer to a non-virtual member reads no table pointer.
#include "oracle.h"

#include <cstring>

struct Bench {
  virtual ~Bench() = default;
  virtual void run(const float *in, float *out) const = 0;
  virtual float weight() const { return 1.0f; }
  void plain(const float *in, float *out) const { out[0] += in[0]; }
};

struct Sum : Bench {
  float scale;
  explicit Sum(float s) : scale(s) {}
  void run(const float *in, float *out) const override {
    for (int i = 0; i < 3; ++i)
      out[i] += in[i] * scale;
  }
};

struct Max : Sum {
  explicit Max(float s) : Sum(s) {}
  void run(const float *in, float *out) const override {
    out[3] = in[0] > in[1] ? in[0] * scale : in[1];
  }
  float weight() const override { return scale + 1.0f; }
};

using Style = void (Bench::*)(const float *, float *) const;

float measure(const Bench &b, float (Bench::*get)() const) {
  return (b.*get)();
}

WGTRACE_DISPATCH void styles(const wgtrace::Workgroup &wg,
                             Bench *const *benches, const Style *run,
                             const float *in, float *out) {
  unsigned i = wg.id[0];
  (benches[i]->*run[i])(in + i, out + 4 * i);
  out[4 * i] += measure(*benches[i], &Bench::weight);
}

int main() {
  static Sum sum(2.0f);
  static Max max(3.0f);
  static Bench *benches[] = {&sum, &max, &max};
  static Style run[] = {&Bench::run, &Bench::run, &Bench::plain};
  float in[6] = {1, 5, 2, 7, 3, 4};
  float out[12] = {};
  oracle::buffer("sum", &sum, 1);
  oracle::buffer("max", &max, 1);
  oracle::buffer("benches", benches, 3);
  oracle::buffer("run", run, 3);
  oracle::buffer("in", in, 6);
  oracle::buffer("out", out, 12);
  oracle::run(styles, 3, benches, run, in, out);
  // The virtual table pointers, the objects' addresses and the
  // non-virtual function's differ between the two builds: not compared.
  std::memset(static_cast<void *>(&sum), 0, sizeof(void *));
  std::memset(static_cast<void *>(&max), 0, sizeof(void *));
  std::memset(static_cast<void *>(benches), 0, sizeof benches);
  std::memset(static_cast<void *>(run), 0, sizeof run);
  return oracle::finish();
}
