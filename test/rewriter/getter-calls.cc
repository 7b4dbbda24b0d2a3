// A const member function whose body is one return statement is a getter,
// not a helper (helpers.cc), unless that return calls work: then it is a
// helper like any other member. A header's one of a class template is
// copied as a function template (MemberCopy.h), as are its getters of one
// private field (size(), and empty() calling it), whose loads are the
// kernel's data; what cannot be copied (at(), defined outside its class,
// as siv::BasicPerlinNoise<double>::octave2D is) gets a warning and an
// untraced entry at each call, an error under --strict, instead of losing
// what it reads in silence. Getters of the file that call only getters
// stay getters, quietly; one of the file that calls a helper of the file
// is instrumented in place, with that helper.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags -I %S/Inputs 2>&1 | FileCheck --check-prefix=STRICT %s
#include <wgtrace/wgtrace.h>

#include "getter-calls.h"

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT:     {"{{.*}}getter-calls.h", 8, 32, "lib::Table::sum2", "call of 'lib::Table::at'", "'lib::Table::at' is defined in {{.*}}getter-calls.h, which is not rewritten, and cannot be copied into this file (it is a member function of a class template defined outside its class)"},
// CHECK-NEXT:     {"{{.*}}getter-calls.h", 8, 40, "lib::Table::sum2", "call of 'lib::Table::at'", {{.*}}},
// CHECK-NEXT: };
static float scale(const float *p) { return 2 * p[0]; }
// CHECK: static float scale(const float *p) { return 2 * WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]); }

struct Scaled {
  const float *p;
  float value() const { return scale(p); }
  // CHECK: float value() const { return scale(WGTRACE_LOAD_REF_AT({{[0-9]+}}, p)); }
  int count() const { return 1; }
  // CHECK: int count() const { return 1; }
};

// The private field `n` through the tag template, for Table<float>.
// CHECK: template <typename C> struct lib_Table_n;
// CHECK-NEXT: template <> struct lib_Table_n<lib::Table<float>> { using type = WgtraceMember<int, lib::Table<float>>; friend type wgtrace_member(lib_Table_n<lib::Table<float>>); };
// CHECK-NEXT: template struct WgtraceAccess<lib_Table_n<lib::Table<float>>, &lib::Table<float>::n>;
// CHECK: template <class T> static inline T Table_sum2_wgtrace_0(const ::lib::Table<T> &self, int i)  { return self.at(i) + self.at(i + 1); }
// CHECK: template <class T> static inline int Table_size_wgtrace_1(const ::lib::Table<T> &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Table_n<::lib::Table<T>>{}))); }
// CHECK: template <class T> static inline bool Table_empty_wgtrace_2(const ::lib::Table<T> &self)  { return ::lib::Table_size_wgtrace_1<T>(self) == 0; }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg,
                        const lib::Table<float> *t, const Scaled *s,
                        float *a) {
  // The header's getters are copied and called with Table's arguments;
  // sum2 calls at(), reported in the header at each call.
  if (t->empty() || t->size() < 2 || s->count() != 1)
    return;
  // CHECK: if (::lib::Table_empty_wgtrace_2<float>(*t) || ::lib::Table_size_wgtrace_1<float>(*t) < 2 || s->count() != 1)
  a[0] = t->sum2(static_cast<int>(wg.id[0])) + s->value();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[0]) = ::lib::Table_sum2_wgtrace_0<float>(*t, static_cast<int>(wg.id[0])) + s->value();
  // WARN: {{.*}}getter-calls.h:8:32: warning: call of 'lib::Table::at' is not traced: 'lib::Table::at' is defined in {{.*}}getter-calls.h, which is not rewritten, and cannot be copied into this file (it is a member function of a class template defined outside its class)
  // WARN: {{.*}}getter-calls.h:8:40: warning: call of 'lib::Table::at' is not traced: {{.*}}(it is a member function of a class template defined outside its class)
  // STRICT: {{.*}}getter-calls.h:8:32: error: call of 'lib::Table::at' is not traced: {{.*}}(it is a member function of a class template defined outside its class)
}
