// A call of a function another file defines is checked at run time
// through its type, written in the kernel's body
// (`definedElsewhere<F>`), where a local variable may have the name of a
// class in that type (CloverLeaf's `auto model = create_context(...)`,
// returning a `struct model`). The type's classes and enums are written
// with their keyword, which looks up types only: `struct model (...)`.
// Before, `model (bool, ...)` named the variable, and the file compiled
// with neither compiler. A member pointer's class, a nested name
// specifier, takes no keyword (`struct Ctx::*` is no type).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --whole-target %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc %}
#include <wgtrace/wgtrace.h>

struct model {
  int ranks;
};
namespace clover {
enum class policy { serial, parallel };
struct options {
  int halo;
};
class context {
public:
  int size(policy p, const options &o) const;
};
} // namespace clover

model create_context(bool boss, clover::policy policy, const int *args);

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const int *args,
                        const clover::context *context, int *out) {
  auto model = create_context(true, clover::policy::serial, args);
  // CHECK: auto model = (::wgtrace::detail::definedElsewhere<struct model (bool, enum clover::policy, const int *)>(WGTRACE_INDIRECT_CALL(0), &::create_context), create_context(true, clover::policy::serial, args));
  clover::policy policy = clover::policy::parallel;
  clover::options options{2};
  out[wg.id[0]] = model.ranks + context->size(policy, options);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[wg.id[0]]) = model.ranks + (::wgtrace::detail::definedElsewhere<int (clover::context::*)(enum clover::policy, const struct clover::options &) const>(WGTRACE_INDIRECT_CALL(1), &::clover::context::size), context->size(policy, options));
}
