// A short std::string keeps its characters in the object itself
// (libstdc++'s small-string buffer, up to 15 characters): a local string's
// are on the kernel's own stack, which is never recorded. What a local
// string hands out (`s[i]`, `s.front()`, `s.data()[i]`) is wrapped in the
// _REF_AT forms, which record it only outside the kernel's stack (a long
// string's characters, on the heap); so is what a helper's reference to a
// string hands out. Before, `s[1]` of a local string was a plain
// WGTRACE_LOAD_AT: a load of the kernel's stack was recorded. A string of
// the kernel's parameters and a local std::vector's elements (always on
// the heap) keep the plain forms.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <string>
#include <vector>

static char firstOf(const std::string &t) { return t[0]; }
// CHECK: static char firstOf(const std::string &t) { return WGTRACE_LOAD_REF_AT(12, t[0]); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const std::string &name,
                        char *out) {
  std::string s(3, 'x');
  out[0] = s[1];
  // CHECK: WGTRACE_STORE_AT(1, out[0]) = WGTRACE_LOAD_REF_AT(2, s[1]);
  s.front() = 'y';
  // CHECK: WGTRACE_STORE_REF_AT(3, s.front()) = 'y';
  out[1] = s.data()[2];
  // CHECK: WGTRACE_STORE_AT(4, out[1]) = WGTRACE_LOAD_REF_AT(5, s.data()[2]);
  out[2] = name[0];
  // CHECK: WGTRACE_STORE_AT(6, out[2]) = WGTRACE_LOAD_AT(7, name[0]);
  std::vector<char> v(2, 'z');
  out[3] = v[1];
  // CHECK: WGTRACE_STORE_AT(9, out[3]) = WGTRACE_LOAD_AT(10, v[1]);
  out[4] = firstOf(s) + firstOf(name) + char(wg.id[0]);
}
