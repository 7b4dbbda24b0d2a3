// --reserve-records: one room check per statement (for n records, n what
// its plain accesses make on any path, an update two) and
// the statement's accesses in their reserved forms; every statement that
// could record anything else, or whose records cannot be counted, keeps
// the checked forms. Without the option nothing is reserved. The output
// is compiled where the build's compiler is Clang: the input's long access
// is a `_BitInt`, which g++ does not have in C++.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --reserve-records %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
// RUN: %wgtrace-rewrite --reserve-records %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: %if cxx-clang %{ %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc %}
// RUN: %if cxx-clang %{ %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -DWGTRACE_CHECK_RESERVATIONS=1 -I %wgtrace-include %t.out.cc %}
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --check-prefix=OFFCHECK --implicit-check-not=WGTRACE_{{RESERVE}} --match-full-lines %s
#include <wgtrace/wgtrace.h>

#include <cmath>

#define AT(p, i) p[i]

struct Pair {
  Pair(float a, float b) : a(a), b(b) {}
  float a, b;
};

// Through a reference that may be bound to the kernel's stack: the runtime
// decides whether it records (a _REF_AT form), not reserved.
static float get(const float &r) { return r; }
// CHECK: static float get(const float &r) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, r); }

// One text for every instantiation: not reserved.
template <class T> void put(T *p, int i) { p[i] = p[i + 1]; }
// CHECK: template <class T> void put(T *p, int i) { WGTRACE_STORE_REF_AT({{[0-9]+}}, p[i]) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[i + 1]); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *out,
                        const float *x, const int *idx, float *acc,
                        unsigned _BitInt(600000) *big, int *flags, int n) {
  int i = int(wg.id[0]);
  for (int j = 0; j < n; ++j)
    out[j] = x[j] * x[j + 1];
    // A loop's body, one expression: reserved with a comma.
    // CHECK: WGTRACE_RESERVE_AT(3), WGTRACE_STORE_RESERVED_AT({{[0-9]+}}, out[j]) = WGTRACE_LOAD_RESERVED_AT({{[0-9]+}}, x[j]) * WGTRACE_LOAD_RESERVED_AT({{[0-9]+}}, x[j + 1]);
    // OFFCHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[j]) = WGTRACE_LOAD_AT({{[0-9]+}}, x[j]) * WGTRACE_LOAD_AT({{[0-9]+}}, x[j + 1]);
  acc[i] += x[i];
  // An update makes two records.
  // CHECK: WGTRACE_RESERVE_AT(3); WGTRACE_UPDATE_RESERVED_AT({{[0-9]+}}, acc[i]) += WGTRACE_LOAD_RESERVED_AT({{[0-9]+}}, x[i]);
  float v = x[idx[i]];
  // CHECK: WGTRACE_RESERVE_AT(2); float v = WGTRACE_LOAD_RESERVED_AT({{[0-9]+}}, x[WGTRACE_LOAD_RESERVED_AT({{[0-9]+}}, idx[i])]);
  out[i] = i > 0 ? x[i] : v;
  // Both sides of a conditional: room left unused costs nothing.
  // CHECK: WGTRACE_RESERVE_AT(2); WGTRACE_STORE_RESERVED_AT({{[0-9]+}}, out[i]) = i > 0 ? WGTRACE_LOAD_RESERVED_AT({{[0-9]+}}, x[i]) : v;
  if (x[i] > 0)
  // An if is not reserved as a whole: its condition stays checked, its
  // branches are reserved one by one.
  // CHECK: if (WGTRACE_LOAD_AT({{[0-9]+}}, x[i]) > 0)
    out[i] = 1;
    // CHECK: WGTRACE_RESERVE_AT(1), WGTRACE_STORE_RESERVED_AT({{[0-9]+}}, out[i]) = 1;
  else {
    out[i] = 2;
    // CHECK: WGTRACE_RESERVE_AT(1); WGTRACE_STORE_RESERVED_AT({{[0-9]+}}, out[i]) = 2;
  }
  out[i] = std::sqrt(x[i]);
  // A call: not reserved.
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = std::sqrt(WGTRACE_LOAD_AT({{[0-9]+}}, x[i]));
  out[i] = AT(x, i);
  // A macro: not reserved.
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, AT(x, i));
  Pair p(x[i], x[i + 1]);
  // A constructor: not reserved.
  // CHECK: Pair p(WGTRACE_LOAD_AT({{[0-9]+}}, x[i]), WGTRACE_LOAD_AT({{[0-9]+}}, x[i + 1]));
  out[i] = p.a;
  // CHECK: WGTRACE_RESERVE_AT(1); WGTRACE_STORE_RESERVED_AT({{[0-9]+}}, out[i]) = p.a;
  big[1] = big[0];
  // Longer than a record's length field (75000 bytes): the checked slow
  // path, not reserved.
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, big[1]) = WGTRACE_LOAD_AT({{[0-9]+}}, big[0]);
  __atomic_store_n(&flags[i], idx[i], __ATOMIC_RELAXED);
  // An atomic operation: not reserved.
  // CHECK: __atomic_store_n(WGTRACE_ATOMIC_STORE_AT({{[0-9]+}}, &flags[i]), WGTRACE_LOAD_AT({{[0-9]+}}, idx[i]), __ATOMIC_RELAXED);
  out[i] = ({ x[i]; });
  // A statement expression: not reserved; its own statements are.
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = ({ WGTRACE_RESERVE_AT(1); WGTRACE_LOAD_RESERVED_AT({{[0-9]+}}, x[i]); });
  auto f = [&] { return x[i]; };
  // A lambda: not reserved; the statements of its body are.
  // CHECK: auto f = [&] { WGTRACE_RESERVE_AT(1); return WGTRACE_LOAD_RESERVED_AT({{[0-9]+}}, x[i]); };
  out[i] = f();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = f();
  out[i] = get(x[i]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = get(x[i]);
  put(out, i);
  return;
}
