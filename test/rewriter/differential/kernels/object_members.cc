// Standard classes that are no containers, as kernel memory: std::get of a
// pair or a tuple and std::optional's `*o` name a member, whose use is
// recorded. The other members
// read or write the object's own bytes in library code: untraced, each
// line in the untraced table.
#include "harness.h"

#include <bitset>
#include <optional>
#include <tuple>
#include <utility>

using P = std::pair<int, int>;
using T = std::tuple<int, int>;
using B = std::bitset<64>;

WGTRACE_DISPATCH void objects(const wgtrace::Workgroup &wg, P *p, T *t,
                              std::optional<int> *o, B *b, int *out) {
  size_t i = wg.id[0];
  int a = std::get<0>(p[i]);     // p[i].first
  int d = std::get<1>(t[i]);     // t[i]'s second int
  p[i] = {a + 1, d};             // @untraced
  int v = *o[i];                 // o[i]'s int
  *o[i] = v + a;                 // o[i]'s int
  b[i].set(i);                   // @untraced
  out[i] = b[i].count() + b[i].size(); // @untraced (count); out[i]
}

int main() {
  P p[2] = {{1, 7}, {2, 8}};
  T t[2] = {{3, 9}, {4, 10}};
  // Static: the optionals' padding is zero in both builds.
  static std::optional<int> o[2];
  o[0] = 5;
  o[1] = 6;
  B b[2];
  int out[2] = {};
  wgtrace::dispatch(objects, wgtrace::Grid{2, 1, 1}, p, t, o, b, out);

  diff::buffer("p", p, 2);
  diff::buffer("t", t, 2);
  diff::buffer("o", o, 2);
  diff::buffer("b", b, 2);
  diff::buffer("out", out, 2);
  for (unsigned x = 0; x < 2; ++x) {
    const diff::Wg g{x};
    diff::bytes(g, 'L', "p", x * sizeof(P) + offsetof(P, first), sizeof(int));
    // libstdc++ keeps a tuple's elements last first.
    diff::bytes(g, 'L', "t",
                x * sizeof(T) +
                    static_cast<size_t>(
                        reinterpret_cast<const char *>(&std::get<1>(t[0])) -
                        reinterpret_cast<const char *>(&t[0])),
                sizeof(int));
    diff::bytes(g, 'L', "o", x * sizeof(std::optional<int>), sizeof(int));
    diff::bytes(g, 'S', "o", x * sizeof(std::optional<int>), sizeof(int));
    diff::store<int>(g, "out", x);
  }
  return diff::finish();
}
