// Nothing untraced in silence: every access of memory that the rewriter
// cannot wrap gets a warning with its place and the reason, and an entry of
// the module's untraced table (which the metadata carries to the viewer).
// The rest of the kernel is instrumented as usual, and the output compiles.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -mavx2 > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -mavx2 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <immintrin.h>
#include <string>

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 48, 14, "k", "call '_mm256_i32gather_ps(a, _mm256_loadu_si256((const __m256i *)idx), 4)'", "'_mm256_i32gather_ps' accesses {{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 51, 3, "k", "_mm256_maskstore_ps(a, _mm256_set1_epi32(-1), g)", "{{.*}}"},
//
// CHECK-NEXT:     {"{{.*}}.cc", 58, 3, "k", "vp[0][1]", "it is one element of a vector type{{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 61, 12, "k", "d[0]", "it is copied as its base class{{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 65, 13, "k", "std::move(d[2]).y", "it is an xvalue{{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 67, 3, "k", "v->a", "it is a bit-field of a virtual base class{{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 70, 3, "k", "std::swap(s[0], s[1])", "'std::swap' is given kernel memory ('s[0]') by pointer or reference{{.*}}"},
// CHECK-NEXT:     {"{{.*}}.cc", 56, 10, "k", "call of 'elsewhere'", "it is not defined in this file{{.*}}"},
// CHECK-NEXT: };

typedef float v4sf __attribute__((vector_size(16)));

struct Base {
  float x;
};
struct Derived : Base {
  float y;
};
struct Bits {
  unsigned a : 4;
};
struct Virtual : virtual Bits {
  unsigned b;
};

// Defined in another file: not instrumented from here.
float elsewhere(const float *p);

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a,
                        const int *idx, v4sf *vp, Derived *d, Virtual *v,
                        float (*fp)(const float *), std::string *s) {
  __m256 g = _mm256_i32gather_ps(a, _mm256_loadu_si256((const __m256i *)idx), 4);
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:14: warning: call '_mm256_i32gather_ps(a, _mm256_loadu_si256((const __m256i *)idx), 4)' is not traced: '_mm256_i32gather_ps' accesses memory that depends on a mask or on indices known only at run time, which wgtrace does not record
  // CHECK: __m256 g = _mm256_i32gather_ps(a, _mm256_loadu_si256(::wgtrace::detail::loaded<32>(WGTRACE_ACCESS_SITE(1), (const __m256i *)idx)), 4);
  _mm256_maskstore_ps(a, _mm256_set1_epi32(-1), g);
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:3: warning: call '_mm256_maskstore_ps(a, _mm256_set1_epi32(-1), g)' is not traced: '_mm256_maskstore_ps' accesses memory {{.*}}
  a[0] = fp(a);
  // A call through a function pointer is followed (indirect-calls.cc).
  // CHECK: WGTRACE_STORE_AT(2, a[0]) = ::wgtrace::detail::throughPointer(WGTRACE_INDIRECT_CALL(0), fp)(a);
  a[1] = elsewhere(a);
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:10: warning: call of 'elsewhere' is not traced: it is not defined in this file, so wgtrace cannot instrument it from here (helpers are instrumented in the file of the kernel that calls them)
  vp[0][1] = 2.0f;
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:3: warning: store of 'vp[0][1]' is not traced: it is one element of a vector type, which has no address for a macro to record
  // CHECK: vp[0][1] = 2.0f;
  Base b = d[0];
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:12: warning: load of 'd[0]' is not traced: it is copied as its base class (a slicing copy), which reads part of the object, and no macro can wrap that part
  Derived e = static_cast<Derived &&>(d[1]);
  // CHECK: Derived e = static_cast<Derived &&>(WGTRACE_LOAD_AT(4, d[1]));
  float f = std::move(d[2]).y;
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:13: warning: load of 'std::move(d[2]).y' is not traced: it is an xvalue (a member of a moved object, or a call returning T &&), whose address no macro can take
  v->a = 1;
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:3: warning: store of 'v->a' is not traced: it is a bit-field of a virtual base class, whose offset in the object is only known at run time
  a[2] = b.x + e.y + f;
  std::swap(s[0], s[1]);
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:3: warning: call 'std::swap(s[0], s[1])' is not traced: 'std::swap' is given kernel memory ('s[0]') by pointer or reference and reads or writes it in library code, which wgtrace does not record
  a[5] = std::move(a[6]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[5]) = {{.*}}a[6]{{.*}};
  (void)wg;
}
