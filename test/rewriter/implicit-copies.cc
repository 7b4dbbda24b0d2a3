// A class's copy or move that the compiler writes and that is not trivial
// (a member with its own: a std::vector, a class with a user-written
// operator= or copy constructor) copies member by member in code the
// rewriter cannot wrap. On kernel memory (`b[1] = b[0]`, `Rec c = b[0]`)
// it is reported untraced (warning, table entry, --strict error); before,
// it recorded nothing and said nothing (Quicksilver's `_particles[indx] =
// base_particle` of an MC_Base_Particle, whose MC_Vector members have
// their own operator=). The members' own user-written copies of this file
// still run instrumented (Vec3::operator=). A trivial copy is recorded as
// one access of the whole object; copies between the kernel's own locals
// are not accesses, but what they hold outside themselves is: `Rec d = c`
// copies c.v's elements, on the heap (container-copies.cc).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %cxx -fsyntax-only -std=c++17 -Wall -Wextra -Werror -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <vector>

struct Vec3 {
  double x, y, z;
  Vec3 &operator=(const Vec3 &o) {
    x = o.x;
    // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, x) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, o.x);
    y = o.y;
    z = o.z;
    return *this;
  }
};
struct Particle {
  Vec3 pos;
  int id;
};
struct Rec {
  std::vector<double> v;
  int id;
};
struct Plain {
  double x;
  int id;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Particle *p, Rec *r,
                        Plain *q, double *out) {
  p[1] = p[0];
  // CHECK: p[1] = p[0];
  Rec c = r[0];
  // CHECK: Rec c = r[0];
  r[1] = std::move(c);
  // CHECK: r[1] = std::move(c);
  Rec d = c;
  // CHECK: Rec d = c;
  q[1] = q[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, q[1]) = WGTRACE_LOAD_AT({{[0-9]+}}, q[0]);
  p[2].pos = p[0].pos;
  // CHECK: p[2].pos = p[0].pos;
  out[wg.id[0]] = d.v.size();
}

// WARN: {{.*}}:48:3: warning: call 'p[1] = p[0]' is not traced: the implicit operator= of 'Particle' is not trivial (it calls its members' own), and the members it copies in code the compiler writes are not recorded
// WARN: {{.*}}:50:11: warning: call 'r[0]' is not traced: the implicit constructor of 'Rec' is not trivial (it calls its members' own), and the members it copies in code the compiler writes are not recorded
// WARN: {{.*}}:52:3: warning: call 'r[1] = std::move(c)' is not traced: the implicit operator= of 'Rec' is not trivial
// WARN: {{.*}}:54:11: warning: call 'c' is not traced: the implicit constructor of 'Rec' is not trivial
// STRICT: error: call 'p[1] = p[0]' is not traced
