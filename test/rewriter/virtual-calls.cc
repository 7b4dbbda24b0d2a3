// A virtual call in a kernel or a helper reads its object's virtual table
// pointer and runs the override of the object's class: every override
// this file defines is instrumented in place (a helper), one of a project
// header is reported at the call (only its copy could be instrumented, and
// no virtual call runs a copy), a pure virtual function without a body is
// not reported. The read is recorded where the compiler makes it, after
// the arguments: at the object when there is none, else around the last
// argument, the object's text repeated; it is reported when the object
// cannot be evaluated again, the last argument is a class passed by value,
// the object is the implicit `this`, or the function's class is a base at
// an offset. Calls the compiler makes directly (qualified, on a variable
// of class type) read nothing.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "virtual-base.h"

struct Vec3 {
  double x, y, z;
};

struct Mine : Base {
  double scale;
  double get(const double *p) const override { return p[0] * scale; }
  // CHECK: double get(const double *p) const override { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]) * WGTRACE_LOAD_REF_AT({{[0-9]+}}, scale); }
  double twice(double x) const override { return x + x * scale; }
  // CHECK: double twice(double x) const override { return x + x * WGTRACE_LOAD_REF_AT({{[0-9]+}}, scale); }
  virtual double dot(Vec3 v) const { return v.x * scale; }
  // CHECK: virtual double dot(Vec3 v) const { return v.x * WGTRACE_LOAD_REF_AT({{[0-9]+}}, scale); }
  double again() const { return twice(scale); }
  // CHECK: double again() const { return twice(::wgtrace::detail::vtableReadAfter(WGTRACE_ACCESS_SITE({{[0-9]+}}), (this), WGTRACE_LOAD_REF_AT({{[0-9]+}}, scale))); }
  virtual double size() const { return scale; }
  // CHECK: virtual double size() const { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, scale); }
  double half() const { return size() / 2; }
  // CHECK: double half() const { return ((void)::wgtrace::detail::vtableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), this), size()) / 2; }
};

struct Other {
  double pad;
  virtual ~Other() {}
};

struct Both : Other, Mine {};

Mine global;

Base *next(Base **p) { return *p; }

double helper(const Base &b, const double *p) { return b.get(p); }
// CHECK: double helper(const Base &b, const double *p) { return b.get(::wgtrace::detail::vtableReadAfter(WGTRACE_ACCESS_SITE({{[0-9]+}}), __builtin_addressof(b), p)); }
// WARN-DAG: {{.*}}.cc:[[@LINE-2]]:56: warning: call of 'InHeader::get' is not traced: 'InHeader::get' is defined in {{.*}}virtual-base.h, which is not rewritten, and cannot be copied into this file (a virtual call may run it, and a header's member function is instrumented only as a copy, which no virtual call runs)

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Base **objs, Mine *m,
                        Both *both, const double *p, double *out) {
  unsigned i = wg.id[0];
  out[i] = objs[i]->get(p + i);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, objs[i])->get(::wgtrace::detail::vtableReadAfter(WGTRACE_ACCESS_SITE({{[0-9]+}}), (objs[i]), p + i));
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:12: warning: call of 'InHeader::get' is not traced: {{.*}}
  out[i] += helper(*objs[i], p);
  out[i] += objs[i]->Base::twice(1.0);
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += WGTRACE_LOAD_AT({{[0-9]+}}, objs[i])->Base::twice(1.0);
  out[i] += global.twice(p[0]);
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += global.twice(WGTRACE_LOAD_AT({{[0-9]+}}, p[0]));
  out[i] += next(objs)->twice(2.0);
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += next(objs)->twice(2.0);
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:13: warning: load of 'next(objs)' is not traced: the virtual call of 'twice' reads its virtual table pointer after the arguments, where wgtrace records the read only when the object can be evaluated again (no side effects, not written by a macro) and the last argument initializes a reference or a scalar
  out[i] += m->dot(Vec3{1.0, 2.0, 3.0});
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:13: warning: load of 'm' is not traced: the virtual call of 'dot' reads its virtual table pointer after the arguments, {{.*}}
  out[i] += m->again();
  out[i] += m[0].size() + m->half();
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += (*::wgtrace::detail::vtableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), __builtin_addressof(m[0]))).size() + m->half();
  out[i] += both->twice(p[1]);
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += both->twice(WGTRACE_LOAD_AT({{[0-9]+}}, p[1]));
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:13: warning: load of 'both' is not traced: the virtual call of 'twice' reads its virtual table pointer in a base of the object's class that is not at its start
  Mine local;
  local.scale = 2.0;
  const Base &r = local;
  out[i] += r.twice(p[2]);
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += r.twice(WGTRACE_LOAD_AT({{[0-9]+}}, p[2]));
}

void run(Base **objs, Mine *m, Both *both, const double *p, double *out) {
  wgtrace::dispatch(k, wgtrace::Grid{1, 1, 1}, objs, m, both, p, out);
}
