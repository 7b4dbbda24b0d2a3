// Range-for over memory: by value, each element copy is a load, recorded by
// iterating over a view (::wgtrace::detail::loads) that records it; by
// reference, the loop variable refers to memory and its uses are wrapped.
// Ranges held by a local (a local array) are not memory.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <span>
#include <utility>
#include <vector>

struct Tile {
  float v[4];
};
float table[8];

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::vector<float> &vec,
                        std::span<const float> sp, Tile *t,
                        std::vector<std::pair<int, float>> &pairs) {
  float local[4] = {};
  float sum = 0;
  for (float x : vec)
    sum += x;
  // CHECK: for (float x : ::wgtrace::detail::loads(WGTRACE_ACCESS_SITE({{[0-9]+}}), vec))
  for (float x : sp)
    sum += x;
  // CHECK: for (float x : ::wgtrace::detail::loads(WGTRACE_ACCESS_SITE({{[0-9]+}}), sp))
  for (float x : table)
    sum += x;
  // CHECK: for (float x : ::wgtrace::detail::loads(WGTRACE_ACCESS_SITE({{[0-9]+}}), table))
  for (float x : t->v)
    sum += x;
  // CHECK: for (float x : ::wgtrace::detail::loads(WGTRACE_ACCESS_SITE({{[0-9]+}}), t->v))
  for (float x : local)
    sum += x;
  // CHECK: for (float x : local)
  for (float &x : vec)
    x *= 2;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, x) *= 2;
  for (float &x : local)
    x *= 2;
  // CHECK: x *= 2;
  for (const auto &[key, value] : pairs)
    sum += value + key;
  // CHECK: sum += WGTRACE_LOAD_REF_AT({{[0-9]+}}, value) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, key);
  for (auto [key, value] : pairs)
    sum += value + key;
  // CHECK: for (auto [key, value] : ::wgtrace::detail::loads(WGTRACE_ACCESS_SITE({{[0-9]+}}), pairs))
  // CHECK-NEXT: sum += value + key;
  vec[wg.id[0]] = sum + local[0];
}
