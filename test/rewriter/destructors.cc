// A destructor runs where no call is written: at the end of a local's
// scope, of a temporary's full-expression, at a delete-expression. One that
// reads or writes memory beyond the object (writing a result back through
// a pointer member) is a helper: instrumented in place when the file
// defines it; a header's (a member function, not copied) is reported where
// the object is declared or made, an error under --strict, instead of
// losing its accesses in silence. So are those a class's implicit or
// defaulted destructor runs: its members' and its bases'.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags -I %S/Inputs 2>&1 | FileCheck --check-prefix=STRICT %s
#include <wgtrace/wgtrace.h>

#include "destructors.h"

struct Writer {
  float *dst;
  float v;
  ~Writer() { *dst = v; }
  // CHECK: ~Writer() { WGTRACE_STORE_AT({{[0-9]+}}, *WGTRACE_LOAD_REF_AT({{[0-9]+}}, dst)) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, v); }
};

// Its destructor is implicit, and runs Writer's and Sink's, the latter
// written for no object of the kernel but Holder's: instrumented in place.
struct Sink {
  float *dst;
  ~Sink() { *dst = 0; }
  // CHECK: ~Sink() { WGTRACE_STORE_AT({{[0-9]+}}, *WGTRACE_LOAD_REF_AT({{[0-9]+}}, dst)) = 0; }
};
struct Holder {
  Sink s;
  Writer w[2];
};

// Only the object's own fields: bookkeeping.
struct Counter {
  int n = 0;
  ~Counter() { n = -1; }
  // CHECK: ~Counter() { n = -1; }
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, float *b) {
  unsigned i = wg.id[0];
  {
    Writer w{a + i, 1.0f};
    Counter c;
    (void)c;
  }
  lib::Flush f{b + i, 2.0f};
  // WARN: {{.*}}.cc:[[@LINE-1]]:14: warning: call of 'lib::Flush::~Flush' is not traced: 'lib::Flush::~Flush' is defined in {{.*}}destructors.h, which is not rewritten, and cannot be copied into this file (it is a member function)
  // STRICT: {{.*}}.cc:[[@LINE-2]]:14: error: call of 'lib::Flush::~Flush' is not traced: {{.*}}(it is a member function)
  lib::Owner o{nullptr};
  (void)o;
  Holder h{{a + i}, {{a + i, 1.0f}, {a + i, 2.0f}}};
  (void)h;
  lib::Pair p{{b + i, 3.0f}, 1};
  // WARN: {{.*}}.cc:[[@LINE-1]]:13: warning: call of 'lib::Flush::~Flush' is not traced: 'lib::Flush::~Flush' is defined in {{.*}}destructors.h, which is not rewritten, and cannot be copied into this file (it is a member function)
  (void)p;
  lib::Derived d;
  // WARN: {{.*}}.cc:[[@LINE-1]]:16: warning: call of 'lib::Flush::~Flush' is not traced: {{.*}}(it is a member function)
  d.dst = b + i;
}
