// Braced lists built from kernel memory: a local array, an aggregate with
// a nested list and a designated initializer, std::initializer_list handed
// to std::max, a std::vector, `new T[n]{...}`, a helper's `return {...}`
// and an element assigned from a list. Each element read from memory is a
// load where the list is built, in the list's order.
#include "harness.h"

#include <algorithm>
#include <vector>

struct Pt {
  float x, y;
};
struct Box {
  Pt lo, hi;
  int tag;
};

static Pt pairOf(const float *a) { return {a[0], a[1]}; }

WGTRACE_DISPATCH void lists(const wgtrace::Workgroup &wg, float *a, Pt *p,
                            Box *bx, int *t, float *hb) {
  unsigned w = wg.id[0];
  float tile[2] = {a[w], a[w + 2]};
  Box b{{p[w].x, tile[0]}, p[w + 2], t[w]};
  Pt d{.x = a[4], .y = 1};
  float m = std::max({a[5], tile[1]});
  std::vector<float> v{a[6], a[7]}; // @untraced (the copy into v)
  float *h = new (hb + w) float[1]{a[8]};
  Pt q = pairOf(a + 9);
  bx[w] = {b.hi, d, t[w + 2]};
  // v's elements are heap memory the program does not name: not read back
  // here (the library's copy of the list into them is reported untraced);
  // h's are hb's, stored once a[8] is read.
  a[11 + w] = m + q.y + b.lo.x + float(b.tag) + float(v.size()) + h[0] * 0;
}

int main() {
  float a[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0};
  Pt p[4] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  Box bx[2] = {};
  int t[4] = {1, 2, 3, 4};
  float hb[2] = {};
  wgtrace::dispatch(lists, wgtrace::Grid{2, 1, 1}, a, p, bx, t, hb);
  diff::buffer("a", a, 13);
  diff::buffer("p", p, 4);
  diff::buffer("bx", bx, 2);
  diff::buffer("t", t, 4);
  diff::buffer("hb", hb, 2);
  for (unsigned w = 0; w < 2; ++w) {
    diff::load<float>({w}, "a", w);
    diff::load<float>({w}, "a", w + 2);
    diff::bytes({w}, 'L', "p", w * sizeof(Pt), sizeof(float));
    diff::load<Pt>({w}, "p", w + 2);
    diff::load<int>({w}, "t", w);
    diff::load<float>({w}, "a", 4);
    diff::load<float>({w}, "a", 5);
    diff::load<float>({w}, "a", 6);
    diff::load<float>({w}, "a", 7);
    diff::load<float>({w}, "a", 8);
    diff::store<float>({w}, "hb", w);
    diff::load<float>({w}, "a", 9);
    diff::load<float>({w}, "a", 10);
    diff::load<int>({w}, "t", w + 2);
    diff::store<Box>({w}, "bx", w);
    diff::load<float>({w}, "hb", w);
    diff::store<float>({w}, "a", 11 + w);
  }
  return diff::finish();
}
