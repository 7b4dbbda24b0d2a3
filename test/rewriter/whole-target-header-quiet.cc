// With --whole-target, what a project header's helper cannot record is
// held back when only the functions exported for other files reach it,
// as for a helper of the file itself: the exported function is registered
// as instrumented in part instead (a call from another file's kernel says
// so at run time). CLAMR's Cmd.cc, with no loop, warned 8 times about
// the getters of Word.hh, Variable.hh and Function.hh that its parser
// functions call. What this file's own kernel reaches is still warned.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --whole-target %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "whole-target-quiet.h"

int use(Word &w) { return int(w.get().size()) + w.size(); }
int count(Word &w) { return w.size(); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Word *w, int *out) {
  unsigned i = wg.id[0];
  out[i] = int(w[i].name().size());
}
// WARN: {{.*}}whole-target-quiet.h:9:31: warning: call 'n' is not traced: construction of 'std::basic_string' is given kernel memory ('n') by pointer or reference and reads or writes it in library code, which wgtrace does not record

// CHECK: const ::wgtrace::detail::IndirectTarget wgtrace_indirect_targets_[] = {
// CHECK-NEXT:     ::wgtrace::detail::functionTarget<int (class Word &)>(&::use, &::use, /*Partial=*/true),
// CHECK-NEXT:     ::wgtrace::detail::functionTarget<int (class Word &)>(&::count, &::count),
// CHECK-NEXT: };
