// Overloaded operators that are not members and read what their reference
// parameters designate: those of a project header (differential/operators.h)
// run as instrumented copies, `a + b` becoming a call of the copy; one of
// this file is instrumented in place. Each records the fields it reads of
// kernel memory; those of temporaries (`a + (-b)`'s `-b`) are not memory
// of the trace.
#include "harness.h"
#include "operators.h"

struct Cell {
  float v;
};
inline bool operator<(const Cell &a, const Cell &b) { return a.v < b.v; }

WGTRACE_DISPATCH void vec_ops(const wgtrace::Workgroup &wg, const ops::Vec *in,
                              ops::Vec *out, float *d, const Cell *c,
                              int *less) {
  unsigned i = wg.id[0];
  unsigned j = (i + 1) % 2;
  out[i] = in[i] + 2.0f * in[j];
  d[i] = dot(in[j] - in[i], in[i]);
  less[i] = c[i] < c[j];
}

int main() {
  ops::Vec in[2] = {ops::Vec(1, 2), ops::Vec(3, 4)};
  ops::Vec out[2];
  float d[2] = {};
  Cell c[2] = {{5}, {2}};
  int less[2] = {};
  wgtrace::dispatch(vec_ops, wgtrace::Grid{2, 1, 1}, in, out, d, c, less);

  diff::buffer("in", in, 2);
  diff::buffer("out", out, 2);
  diff::buffer("d", d, 2);
  diff::buffer("c", c, 2);
  diff::buffer("less", less, 2);
  auto Field = [](unsigned W, size_t Element, size_t Offset) {
    diff::bytes({W}, 'L', "in", Element * sizeof(ops::Vec) + Offset,
                sizeof(float));
  };
  for (unsigned w = 0; w < 2; ++w) {
    unsigned j = (w + 1) % 2;
    // 2.0f * in[j], then in[i] + (the temporary): in[i]'s fields only.
    Field(w, j, offsetof(ops::Vec, x));
    Field(w, j, offsetof(ops::Vec, y));
    Field(w, w, offsetof(ops::Vec, x));
    Field(w, w, offsetof(ops::Vec, y));
    diff::store<ops::Vec>({w}, "out", w);
    // in[j] - in[i] is in[j] + (-in[i]); dot reads in[i] again.
    Field(w, w, offsetof(ops::Vec, x));
    Field(w, w, offsetof(ops::Vec, y));
    Field(w, j, offsetof(ops::Vec, x));
    Field(w, j, offsetof(ops::Vec, y));
    Field(w, w, offsetof(ops::Vec, x));
    Field(w, w, offsetof(ops::Vec, y));
    diff::store<float>({w}, "d", w);
    diff::load<Cell>({w}, "c", w);
    diff::load<Cell>({w}, "c", j);
    diff::store<int>({w}, "less", w);
  }
  return diff::finish();
}
