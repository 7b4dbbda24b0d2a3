// Macros: an access spelled whole inside one macro argument is wrapped at
// its spelling; a macro invocation that expands to exactly one lvalue (the
// index macros of PolyBench and BLAS, `#define A(i, j) a[(i) * lda + (j)]`)
// is wrapped at the invocation. What is left (an access that is only part
// of a macro's expansion) gets a warning at the invocation, with the macro
// and the reason, and an entry in the untraced table.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc %}
#include <wgtrace/wgtrace.h>

// The tables: every wrapped invocation is an access site named by its
// text; the untraced accesses say where, what and why.
// CHECK: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 61, 22, 0, "k", "a[2]"},
// CHECK-NEXT:     {"{{.*}}.cc", 63, 13, 0, "k", "LOAD_FIRST(a)"},
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
// CHECK-NEXT: };
// CHECK-NEXT: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 65, 3, "k", "(p)[1]", "it is part of the expansion of macro 'CLEAR' (neither the whole expansion nor inside one of its arguments), whose text every expansion shares"},
// CHECK-NEXT:     {"{{.*}}.cc", 78, 8, "k", "a[4]", "its text is a macro argument {{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 78, 8, "k", "a[4]", "its text is a macro argument {{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 78, 14, "k", "b[4]", "its text is a macro argument {{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 78, 14, "k", "b[4]", "its text is a macro argument {{.*}}"},
// CHECK-NEXT: };
// CHECK-NEXT: WGTRACE_ACCESS_SITE_TABLE(13)
// CHECK-NEXT: ::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 1, nullptr, 0, WGTRACE_MODULE_EXTRAS(wgtrace_access_sites_, 13, wgtrace_untraced_, 5, wgtrace_access_site_bits_));


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
  // CHECK: CLEAR(a);
  // WARN: {{.*}}.cc:[[@LINE-2]]:3: warning: store of '(p)[1]' is not traced: it is part of the expansion of macro 'CLEAR' (neither the whole expansion nor inside one of its arguments), whose text every expansion shares
  A(1, 2) = B(2, 3) + A(0, 0) + x + y;
  // CHECK: WGTRACE_STORE_AT(3, A(1, 2)) = WGTRACE_LOAD_AT(4, B(2, 3)) + WGTRACE_LOAD_AT(5, A(0, 0)) + x + y;
  A(1, 2) += C(3, 1);
  // CHECK: WGTRACE_UPDATE_AT(6, A(1, 2)) += WGTRACE_LOAD_AT(7, C(3, 1));
  ++A(0, 1);
  // CHECK: ++WGTRACE_UPDATE_AT(8, A(0, 1));
  IDENTITY(A(3, 3)) = FIRST;
  // CHECK: IDENTITY(WGTRACE_STORE_AT(9, A(3, 3))) = WGTRACE_LOAD_AT(10, FIRST);
  A(b[0] > 0 ? 1 : 0, 0) = ROW(2)[1];
  // CHECK: WGTRACE_STORE_AT(11, A(WGTRACE_LOAD_AT(12, b[0]) > 0 ? 1 : 0, 0)) = WGTRACE_LOAD_AT(13, ROW(2)[1]);
  SWAP(a[4], b[4]);
  // CHECK: SWAP(a[4], b[4]);
  // A macro that reads and writes its argument: one text cannot be wrapped
  // for both, so neither is, and each use is listed.
  // WARN: {{.*}}.cc:[[@LINE-4]]:8: warning: load of 'a[4]' is not traced: its text is a macro argument that the macro uses in several ways (say, read and written), and one text cannot be wrapped for each
  // WARN: {{.*}}.cc:[[@LINE-5]]:8: warning: store of 'a[4]' is not traced: {{.*}}
  // WARN: {{.*}}.cc:[[@LINE-6]]:14: warning: load of 'b[4]' is not traced: {{.*}}
  // WARN: {{.*}}.cc:[[@LINE-7]]:14: warning: store of 'b[4]' is not traced: {{.*}}
  (void)wg;
}
