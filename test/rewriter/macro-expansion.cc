// An access that is only part of a macro's expansion, or in a macro argument
// the macro uses in several ways: the invocation is written out in place as
// the tokens it expands to, each access wrapped at its tokens, so every
// access of the expansion is recorded (an argument the macro uses twice at
// each use, in the compiler's order). The wraps of the invocation's
// arguments move into the tokens with it. The site is at the invocation,
// named by the access's own tokens. An invocation that its tokens printed
// again would not reproduce (a _Pragma, __COUNTER__, a directive among its
// arguments) keeps its warning.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc %}
#include <wgtrace/wgtrace.h>

// CHECK: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 81, 3, 1, "k", "(U)[1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 84, 14, 0, "k", "U[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 84, 14, 0, "k", "U[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 84, 14, 0, "k", "H[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 84, 14, 0, "k", "H[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 84, 14, 0, "k", "H[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 88, 14, 0, "k", "U[i + 1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 88, 14, 0, "k", "U[i + 1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 88, 14, 0, "k", "H[i + 1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 88, 14, 0, "k", "H[i + 1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 88, 14, 0, "k", "H[i + 1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 88, 39, 0, "k", "H[2]"},
// CHECK-NEXT:     {"{{.*}}.cc", 91, 8, 0, "k", "U[4]"},
// CHECK-NEXT:     {"{{.*}}.cc", 91, 3, 1, "k", "U[4]"},
// CHECK-NEXT:     {"{{.*}}.cc", 91, 14, 0, "k", "H[4]"},
// CHECK-NEXT:     {"{{.*}}.cc", 91, 3, 1, "k", "H[4]"},
// CHECK-NEXT:     {"{{.*}}.cc", 94, 22, 0, "k", "Us[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 94, 22, 0, "k", "Us[i + 1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 94, 33, 0, "k", "X(IDENTITY(H_i[0]))"},
// CHECK-NEXT:     {"{{.*}}.cc", 94, 33, 0, "k", "H_i[(H_i[0])]"},
// CHECK-NEXT:     {"{{.*}}.cc", 94, 44, 0, "k", "H_i[0]"},
// CHECK-NEXT:     {"{{.*}}.cc", 97, 3, 1, "k", "names[0]"},
// CHECK-NEXT:     {"{{.*}}.cc", 99, 3, 1, "k", "H[1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 99, 10, 0, "k", "CAT(U, s)[0]"},
// CHECK-NEXT:     {"{{.*}}.cc", 99, 28, 0, "k", "CAT(U, s)[1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 102, 3, 1, "k", "(H)[1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 104, 3, 1, "k", "((U))[1]"},
// CHECK-NEXT:     {"{{.*}}.cc", 121, 3, 1, "k", "U[2]"},
// CHECK-NEXT:     {"{{.*}}.cc", 121, 10, 0, "k", "U[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 121, 10, 0, "k", "U[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 121, 10, 0, "k", "H[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 121, 10, 0, "k", "H[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 121, 10, 0, "k", "H[i]"},
// CHECK-NEXT:     {"{{.*}}.cc", 125, 3, 1, "k", "U[0]"},
// CHECK-NEXT: };
// CHECK-NEXT: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 106, 3, "k", "(p)[1]", "{{.*}}: it holds a _Pragma"},
// CHECK-NEXT:     {"{{.*}}.cc", 109, 14, "k", "(p)[__COUNTER__ % 2]", "{{.*}}: it expands __COUNTER__"},
// CHECK-NEXT:     {"{{.*}}.cc", 112, 3, "k", "(p)[1]", "{{.*}}: a directive is among its arguments"},
// CHECK-NEXT: };

#define SQ(x) ((x) * (x))
#define CLEAR(p) (p)[1] = 0
#define UXFLUX(ic) (SQ(U[ic]) / H[ic] + 0.5 * SQ(H[ic]))
#define IDENTITY(x) (x)
#define SWAP(x, y)                                                             \
  do {                                                                         \
    double t_ = (x);                                                           \
    (x) = (y);                                                                 \
    (y) = t_;                                                                  \
  } while (0)
#define CAT(a, b) a##b
#define NAME(a) #a
#define AT(p, i) p##s[i] + p##s[i + 1]
#define X(i) U[H_i[i]]
#define PRAGMA_CLEAR(p) _Pragma("GCC diagnostic push") (p)[1] = 0; _Pragma("GCC diagnostic pop")
#define COUNTED(p) ((p)[__COUNTER__ % 2] + 1)

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, double *U, double *H,
                        int *H_i, double *Us, const char **names) {
  unsigned i = wg.id[0];
  // A store inside the macro's body.
  CLEAR(U);
  // CHECK: WGTRACE_STORE_AT(1, ( U ) [ 1 ]) = 0;
  // Nested macros, SQ using its argument twice: U[i] and H[i] loaded twice.
  double f = UXFLUX(i);
  // CHECK: double f = ( ( ( WGTRACE_LOAD_AT(2, U [ i ]) ) * ( WGTRACE_LOAD_AT(3, U [ i ]) ) ) / WGTRACE_LOAD_AT(4, H [ i ]) + 0.5 * ( ( WGTRACE_LOAD_AT(5, H [ i ]) ) * ( WGTRACE_LOAD_AT(6, H [ i ]) ) ) );
  // An invocation inside another macro's argument, and the argument's own
  // access (H[2], once wrapped at its spelling) written out with it.
  double g = IDENTITY(UXFLUX(i + 1) + H[2]);
  // CHECK: double g = ( ( ( ( WGTRACE_LOAD_AT(7, U [ i + 1 ]) ) * ( WGTRACE_LOAD_AT(8, U [ i + 1 ]) ) ) / WGTRACE_LOAD_AT(9, H [ i + 1 ]) + 0.5 * ( ( WGTRACE_LOAD_AT(10, H [ i + 1 ]) ) * ( WGTRACE_LOAD_AT(11, H [ i + 1 ]) ) ) ) + WGTRACE_LOAD_AT(12, H [ 2 ]) );
  // Arguments read and written: each use wrapped for what it does.
  SWAP(U[4], H[4]);
  // CHECK: do { double t_ = ( WGTRACE_LOAD_AT(13, U [ 4 ]) ) ; ( WGTRACE_STORE_AT(14, U [ 4 ]) ) = ( WGTRACE_LOAD_AT(15, H [ 4 ]) ) ; ( WGTRACE_STORE_AT(16, H [ 4 ]) ) = t_ ; } while ( 0 );
  // Pasted names; an inner whole invocation (X's) wraps its own accesses.
  double CAT(t, 1) = AT(U, i) + X(IDENTITY(H_i[0]));
  // CHECK: double CAT(t, 1) = WGTRACE_LOAD_AT(17, Us [ i ]) + WGTRACE_LOAD_AT(18, Us [ i + 1 ]) + WGTRACE_LOAD_AT(19, U [ WGTRACE_LOAD_AT(20, H_i [ ( WGTRACE_LOAD_AT(21, H_i [ 0 ]) ) ]) ]);
  // A stringized argument is no access; the nicer rewrites stay.
  names[0] = NAME(U[5]);
  // CHECK: WGTRACE_STORE_AT(22, names[0]) = NAME(U[5]);
  H[1] = CAT(U, s)[0] + SQ(CAT(U, s)[1]);
  // CHECK: WGTRACE_STORE_AT(23, H[1]) = WGTRACE_LOAD_AT(24, CAT(U, s)[0]) + SQ(WGTRACE_LOAD_AT(25, CAT(U, s)[1]));
  // The outermost invocation is written out.
  IDENTITY(CLEAR(H));
  // CHECK: ( WGTRACE_STORE_AT(26, ( H ) [ 1 ]) = 0 );
  CLEAR(IDENTITY(U));
  // CHECK: WGTRACE_STORE_AT(27, ( ( U ) ) [ 1 ]) = 0;
  PRAGMA_CLEAR(U);
  // CHECK: PRAGMA_CLEAR(U);
  // WARN: {{.*}}.cc:[[@LINE-2]]:3: warning: store of '(p)[1]' is not traced: it is part of the expansion of macro 'PRAGMA_CLEAR' (neither the whole expansion nor inside one of its arguments), whose text every expansion shares, and its invocation cannot be written out as the tokens it expands to: it holds a _Pragma
  double c = COUNTED(H);
  // CHECK: double c = COUNTED(H);
  // WARN: {{.*}}.cc:[[@LINE-2]]:14: warning: load of '(p)[__COUNTER__ % 2]' is not traced: {{.*}}: it expands __COUNTER__
  CLEAR(
#ifdef NOT_DEFINED
      H
#else
      U
#endif
  );
  // WARN: {{.*}}.cc:[[@LINE-7]]:3: warning: store of '(p)[1]' is not traced: {{.*}}: a directive is among its arguments
  // A multi-line invocation keeps the lines after it where they were.
  U[2] = UXFLUX(
      i);
  // CHECK: WGTRACE_STORE_AT(28, U[2]) = ( ( ( WGTRACE_LOAD_AT(29, U [ i ]) ) * ( WGTRACE_LOAD_AT(30, U [ i ]) ) ) / WGTRACE_LOAD_AT(31, H [ i ]) + 0.5 * ( ( WGTRACE_LOAD_AT(32, H [ i ]) ) * ( WGTRACE_LOAD_AT(33, H [ i ]) ) ) )
  // CHECK-NEXT: ;
  U[0] = f + g + t1 + c;
  // CHECK: WGTRACE_STORE_AT(34, U[0]) = f + g + t1 + c;
}
