// Class accessors, operators and constructors of this file that do work
// beyond naming memory are helpers, instrumented in place: an accessor
// whose address needs an element load (LULESH's nodeElemCornerList,
// `&list[start[i]]`) records that load and the fields it reads, not the
// element it returns (the kernel's use of it is recorded); a functor's
// loop and a constructor filling the array it is given record their
// accesses. An accessor that only names memory (`at`) records nothing of
// its own: the kernel's use of the element is the access.
#include "harness.h"

struct Mesh {
  int *start;
  float *list;
  float *corner(int i) { return &list[start[i]]; }
  float &at(int i) { return list[i]; }
};

struct Total {
  int n;
  float operator()(const float *a) const {
    float s = 0;
    for (const float *e = a; e != a + n; ++e)
      s += *e;
    return s;
  }
};

struct Fill {
  float first;
  Fill(float *p, int n, const float *src) : first(src[0]) {
    for (int k = 0; k < n; ++k)
      p[k] = first;
  }
};

WGTRACE_DISPATCH void gather(const wgtrace::Workgroup &wg, Mesh *m,
                             const float *in, float *out, float *fill) {
  int i = static_cast<int>(wg.id[0]);
  Total total{3};
  out[i] = *m->corner(i) + m->at(i) + total(in);
  Fill f(fill + 2 * i, 2, in + i);
  (void)f;
}

int main() {
  int start[2] = {3, 1};
  float list[4] = {10, 20, 30, 40};
  Mesh mesh{start, list};
  float in[3] = {1, 2, 4};
  float out[2] = {};
  float fill[4] = {};
  wgtrace::dispatch(gather, wgtrace::Grid{2, 1, 1}, &mesh, in, out, fill);

  diff::addressBuffer("mesh", &mesh);
  diff::buffer("start", start, 2);
  diff::buffer("list", list, 4);
  diff::buffer("in", in, 3);
  diff::buffer("out", out, 2);
  diff::buffer("fill", fill, 4);
  for (unsigned w = 0; w < 2; ++w) {
    // corner(): the fields it reads, the element load of its address.
    diff::bytes({w}, 'L', "mesh", offsetof(Mesh, list), sizeof(float *));
    diff::bytes({w}, 'L', "mesh", offsetof(Mesh, start), sizeof(int *));
    diff::load<int>({w}, "start", w);
    // The kernel's loads of what corner() and at() return.
    diff::load<float>({w}, "list", static_cast<size_t>(start[w]));
    diff::load<float>({w}, "list", w);
    // total(in): the loop's loads (its field n is the kernel's local).
    for (size_t k = 0; k < 3; ++k)
      diff::load<float>({w}, "in", k);
    diff::store<float>({w}, "out", w);
    // Fill: the initializer's load, the loop's stores.
    diff::load<float>({w}, "in", w);
    diff::store<float>({w}, "fill", 2 * w);
    diff::store<float>({w}, "fill", 2 * w + 1);
  }
  return diff::finish();
}
