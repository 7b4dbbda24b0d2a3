//===- wgtrace/watch.h - Watched local variables --------------------------===//
//
// `WGTRACE_WATCH(3) float x = a[i];` marks the local x: wgtrace-rewrite
// records a VALUE record with ordinal 3 holding x after its initialisation
// and after every assignment, compound assignment, ++ and -- of x in the
// kernel, and lists "3=x" in the kernel's layout metadata. Under Clang the
// macro is an annotation that the rewriter reads; elsewhere it expands to
// nothing, so the un-instrumented source builds with any compiler.
// Included by <wgtrace/wgtrace.h>.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_WATCH_H
#define WGTRACE_WATCH_H

#if defined(__clang__) && defined(__has_cpp_attribute)
#if __has_cpp_attribute(clang::annotate)
#define WGTRACE_WATCH(ordinal) [[clang::annotate("wgtrace.watch", ordinal)]]
#endif
#endif
#ifndef WGTRACE_WATCH
#define WGTRACE_WATCH(ordinal)
#endif

#endif // WGTRACE_WATCH_H
