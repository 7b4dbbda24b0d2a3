// The kernel's own stack is never recorded, whatever reaches it: a local
// handed to a helper by pointer or by reference, a local object whose
// member function is a helper, a lambda's reference parameter given a
// local or a temporary, a local reference bound to a call's result, a
// structured binding of a local pair, the characters of a short local
// std::string (kept in the object: `s[1]`, `s.front()`, `s.data()[i]`,
// and a helper's reference to it; recorded as loads of the stack before
// 2026-12). The same helpers, lambdas and references given kernel memory
// record every access.
#include "oracle.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

constexpr unsigned N = 8;

struct Accumulator {
  float Sum = 0;
  void add(const float &V) { Sum += V; }
};

static void addInto(float &Total, const float *Values, unsigned Count) {
  for (unsigned I = 0; I < Count; ++I)
    Total += Values[I];
}

static float scaled(const float &V, float Factor) { return V * Factor; }

static char secondOf(const std::string &S) { return S[1]; }

WGTRACE_DISPATCH void stack(const wgtrace::Workgroup &wg, float *a,
                            float *out) {
  float *x = a + wg.id[0] * N;
  float *o = out + wg.id[0] * N;
  float local[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  float total = 0;
  addInto(total, local, 4);
  addInto(total, x, 4);
  addInto(o[0], local, 2);
  addInto(o[1], x + 4, 4);
  Accumulator acc;
  acc.add(x[0]);
  acc.add(total);
  o[2] = acc.Sum + scaled(local[1], 2.0f) + scaled(x[1], 3.0f);
  auto twice = [](const float &V) { return V * 2; };
  o[3] = twice(total) + twice(x[2]) + twice(local[0] + 1);
  const float &larger = std::max(x[3], total);
  o[4] = larger;
  std::pair<float *, float *> ends(x, x + N);
  auto [first, last] = ends;
  o[5] = static_cast<float>(last - first) + first[5];
  std::string s(3, 'x');
  s.front() = 'y';
  s[2] = 'z';
  o[6] = float(s[1] + s.data()[0] + secondOf(s) + s.back());
}

int main() {
  std::vector<float> a(2 * N), out(2 * N);
  for (unsigned i = 0; i < 2 * N; ++i)
    a[i] = static_cast<float>((i * 3) % 7) - 1.5f;
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::run(stack, 2, a.data(), out.data());
  return oracle::finish();
}
