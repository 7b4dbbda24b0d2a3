// Macros: an access spelled whole inside one macro argument is wrapped at
// its spelling; a macro invocation that expands to exactly one lvalue (the
// index macros of PolyBench and BLAS, `#define A(i, j) a[(i) * lda + (j)]`)
// is wrapped at the invocation. An access that is only part of a macro's
// expansion, or a macro argument the macro both reads and writes, is
// wrapped in the invocation written out as its tokens (macro-expansion.cc
// tests that at length).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: not grep warning: %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc %}
#include <wgtrace/wgtrace.h>

// The table: every wrapped invocation is an access site named by its text;
// an access wrapped in a written-out invocation is named by its tokens.
// CHECK: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 61, 22, 0, "k", "a[2]"},
// CHECK-NEXT:     {"{{.*}}.cc", 63, 13, 0, "k", "LOAD_FIRST(a)"},
// CHECK-NEXT:     {"{{.*}}.cc", 65, 3, 1, "k", "(a)[1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 68, 3, 1, "k", "A(1, 2)"},
// CHECK-NEXT:     {"{{.*}}.cc", 68, 13, 0, "k", "B(2, 3)"},
// CHECK-NEXT:     {"{{.*}}.cc", 68, 23, 0, "k", "A(0, 0)"},
// CHECK-NEXT:     {"{{.*}}.cc", 70, 3, 2, "k", "A(1, 2)"},
// CHECK-NEXT:     {"{{.*}}.cc", 70, 14, 0, "k", "C(3, 1)"},
// CHECK-NEXT:     {"{{.*}}.cc", 72, 5, 2, "k", "A(0, 1)"},
// CHECK-NEXT:     {"{{.*}}.cc", 74, 12, 1, "k", "A(3, 3)"},
// CHECK-NEXT:     {"{{.*}}.cc", 74, 23, 0, "k", "FIRST"},
// CHECK-NEXT:     {"{{.*}}.cc", 76, 3, 1, "k", "A(b[0] > 0 ? 1 : 0, 0)"},
// CHECK-NEXT:     {"{{.*}}.cc", 76, 5, 0, "k", "b[0]"},
// CHECK-NEXT:     {"{{.*}}.cc", 76, 28, 0, "k", "ROW(2)[1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 78, 8, 0, "k", "a[4]"},
// CHECK-NEXT:     {"{{.*}}.cc", 78, 3, 1, "k", "a[4]"},
// CHECK-NEXT:     {"{{.*}}.cc", 78, 14, 0, "k", "b[4]"},
// CHECK-NEXT:     {"{{.*}}.cc", 78, 3, 1, "k", "b[4]"},
// CHECK-NEXT: };
// CHECK-NEXT: WGTRACE_ACCESS_SITE_TABLE(18)
// CHECK-NEXT: ::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 1, nullptr, 0, WGTRACE_MODULE_EXTRAS(wgtrace_access_sites_, 18, nullptr, 0, wgtrace_access_site_bits_));
//


#define IDENTITY(x) (x)
#define LOAD_FIRST(p) ((p)[0])
#define CLEAR(p) (p)[1] = 0
#define A(i, j) a[(i) * lda + (j)]
#define B(i, j) (b[(i) * lda + (j)])
#define IDX(i, j) ((i) * lda + (j))
#define C(i, j) a[IDX(i, j)]
#define ROW(i) (&a[(i) * lda])
#define FIRST a[0]
#define SWAP(x, y)                                                             \
  do {                                                                         \
    float t_ = (x);                                                            \
    (x) = (y);                                                                 \
    (y) = t_;                                                                  \
  } while (0)

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, float *b,
                        int lda) {
  float x = IDENTITY(a[2]);
  // CHECK: float x = IDENTITY(WGTRACE_LOAD_AT(1, a[2]));
  float y = LOAD_FIRST(a);
  // CHECK: float y = WGTRACE_LOAD_AT(2, LOAD_FIRST(a));
  CLEAR(a);
  // CHECK: WGTRACE_STORE_AT(3, ( a ) [ 1 ]) = 0;
  //
  A(1, 2) = B(2, 3) + A(0, 0) + x + y;
  // CHECK: WGTRACE_STORE_AT(4, A(1, 2)) = WGTRACE_LOAD_AT(5, B(2, 3)) + WGTRACE_LOAD_AT(6, A(0, 0)) + x + y;
  A(1, 2) += C(3, 1);
  // CHECK: WGTRACE_UPDATE_AT(7, A(1, 2)) += WGTRACE_LOAD_AT(8, C(3, 1));
  ++A(0, 1);
  // CHECK: ++WGTRACE_UPDATE_AT(9, A(0, 1));
  IDENTITY(A(3, 3)) = FIRST;
  // CHECK: IDENTITY(WGTRACE_STORE_AT(10, A(3, 3))) = WGTRACE_LOAD_AT(11, FIRST);
  A(b[0] > 0 ? 1 : 0, 0) = ROW(2)[1];
  // CHECK: WGTRACE_STORE_AT(12, A(WGTRACE_LOAD_AT(13, b[0]) > 0 ? 1 : 0, 0)) = WGTRACE_LOAD_AT(14, ROW(2)[1]);
  SWAP(a[4], b[4]);
  // CHECK: do { float t_ = ( WGTRACE_LOAD_AT(15, a [ 4 ]) ) ; ( WGTRACE_STORE_AT(16, a [ 4 ]) ) = ( WGTRACE_LOAD_AT(17, b [ 4 ]) ) ; ( WGTRACE_STORE_AT(18, b [ 4 ]) ) = t_ ; } while ( 0 );
  // A macro that reads and writes its argument: one text cannot be wrapped
  // for both, so the invocation is written out, each use wrapped for what
  // it does. Nothing is left untraced.
  (void)wg;
}
