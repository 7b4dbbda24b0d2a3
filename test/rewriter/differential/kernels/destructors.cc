// A destructor of this file that writes a result back through a pointer
// member when the object dies (at the end of its scope) is a helper,
// instrumented in place: its store is recorded as the workgroup's, after
// the accesses the object's scope made, and so when it dies as a member of
// an object whose destructor is implicit. Its loads of its own fields are of
// the kernel's stack, not memory of the trace. (Deleting a heap object
// runs it too; its field loads are then of the heap block, which this
// harness cannot name.)
#include "harness.h"

struct Writer {
  float *dst;
  float v;
  ~Writer() { *dst = v; }
};

// A destructor no object of the kernel has but as a member: Holder's
// implicit one runs it, and its update is recorded when a Holder dies.
struct Adder {
  float *dst;
  float v;
  ~Adder() { *dst += v; }
};
struct Holder {
  int tag;
  Adder add;
};

WGTRACE_DISPATCH void write_back(const wgtrace::Workgroup &wg, const float *in,
                                 float *out) {
  unsigned i = wg.id[0];
  {
    Writer w{out + i, 0};
    w.v = in[i] * 2;
  }
  {
    Writer twice[2] = {{out + 2 + i, in[i]}, {out + 2 + i, 3}};
    (void)twice;
  }
  {
    Holder h{0, {out + 4 + i, in[i] + 1}};
    (void)h;
  }
}

int main() {
  float in[2] = {1, 2};
  float out[6] = {};
  wgtrace::dispatch(write_back, wgtrace::Grid{2, 1, 1}, in, out);

  diff::buffer("in", in, 2);
  diff::buffer("out", out, 6);
  for (unsigned w = 0; w < 2; ++w) {
    diff::load<float>({w}, "in", w);
    diff::store<float>({w}, "out", w);
    // An array's elements die last first: twice[1], then twice[0].
    diff::load<float>({w}, "in", w);
    diff::store<float>({w}, "out", 2 + w);
    diff::store<float>({w}, "out", 2 + w);
    diff::load<float>({w}, "in", w);
    diff::update<float>({w}, "out", 4 + w);
  }
  return diff::finish();
}
