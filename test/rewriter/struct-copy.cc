// Copying a struct is one access of the whole struct: a load of the source
// (trivial copy constructor or assignment), a store of the target. A
// structured binding by value copies its source (a struct or an array) as
// one access.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <utility>

struct Particle {
  float pos[3];
  float mass;
};
float g_pair[2];

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Particle *p,
                        Particle &out, int i) {
  Particle copy = p[i];
  // CHECK: Particle copy = WGTRACE_LOAD_AT({{[0-9]+}}, p[i]);
  p[i + 1] = copy;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, p[i + 1]) = copy;
  out = p[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out) = WGTRACE_LOAD_AT({{[0-9]+}}, p[0]);
  p[2] = std::move(p[3]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, p[2]) = std::move(WGTRACE_LOAD_AT({{[0-9]+}}, p[3]));
  Particle local = copy;
  // CHECK: Particle local = copy;
  auto [m0, m1] = g_pair;
  // CHECK: auto [m0, m1] = WGTRACE_LOAD_AT({{[0-9]+}}, g_pair);
  auto [pos, mass] = p[1];
  // CHECK: auto [pos, mass] = WGTRACE_LOAD_AT({{[0-9]+}}, p[1]);
  out.mass = local.mass + m0 + m1 + mass + pos[0];
  (void)wg;
}
