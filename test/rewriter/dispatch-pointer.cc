// A dispatch whose kernel is a function pointer's value (chosen at run
// time, as PRK's stencil chooses star1..star5) gets one site per kernel of
// the file the pointer can hold: of its type, declared before the call,
// not overloaded. ::wgtrace::detail::siteOfKernel picks the site of the
// kernel the pointer holds; any other (a kernel of another file) records
// under its own direct-call site. Each site names its kernel, so the
// viewer names the buffers of the kernel that ran.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

using Stencil = void (*)(const wgtrace::Workgroup &, const float *, float *);

WGTRACE_DISPATCH void star1(const wgtrace::Workgroup &wg, const float *in,
                            float *out) {
  out[wg.id[0]] = in[wg.id[0]];
}

namespace {
WGTRACE_DISPATCH void star2(const wgtrace::Workgroup &wg, const float *in,
                            float *out) {
  out[wg.id[0]] = 2 * in[wg.id[0]];
}
} // namespace

WGTRACE_DISPATCH void other(const wgtrace::Workgroup &wg, float *out) {
  out[wg.id[0]] = 0;
}

// Defined in another file: not a kernel of this one.
void elsewhere(const wgtrace::Workgroup &wg, const float *in, float *out);

// CHECK: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT: {"star1", "{{.*}}.cc:46"},
// CHECK-NEXT: {"star2", "{{.*}}.cc:46"},
// CHECK-NEXT: {"star1", "{{.*}}.cc:52"},
// CHECK-NEXT: };

Stencil pick(int radius);

void run(const float *in, float *out, int radius) {
  wgtrace::Grid g{4, 1, 1};
  Stencil stencil = radius == 1 ? star1 : radius == 2 ? star2 : elsewhere;
  wgtrace::dispatch(stencil, g, in, out);
  // CHECK: wgtrace::dispatch(::wgtrace::detail::siteOfKernel(stencil, ::wgtrace::detail::SiteRef{}, &::star1, WGTRACE_SITE(0), &::star2, WGTRACE_SITE(1)), stencil, g, in, out);
  // A call with side effects would run twice: the kernel that runs
  // records under its direct-call site.
  wgtrace::dispatch(pick(radius), g, in, out);
  // CHECK: wgtrace::dispatch(::wgtrace::detail::SiteRef{}, pick(radius), g, in, out);
  wgtrace::dispatch(star1, g, in, out);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(2), star1, g, in, out);
}
