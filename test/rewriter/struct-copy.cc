// Copying a struct is one access of the whole struct: a load of the source
// (trivial copy constructor or assignment), a store of the target.
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

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Particle *p,
                        Particle &out, int i) {
  Particle copy = p[i];
  // CHECK: Particle copy = WGTRACE_LOAD(p[i]);
  p[i + 1] = copy;
  // CHECK: WGTRACE_STORE(p[i + 1]) = copy;
  out = p[0];
  // CHECK: WGTRACE_STORE(out) = WGTRACE_LOAD(p[0]);
  p[2] = std::move(p[3]);
  // CHECK: WGTRACE_STORE(p[2]) = std::move(WGTRACE_LOAD(p[3]));
  Particle local = copy;
  // CHECK: Particle local = copy;
  out.mass = local.mass;
  (void)wg;
}
