// A customization point object of the library (std::ranges::swap of
// strings, which wgtrace does not record) given kernel memory it writes is
// an untraced call, named by the object, as a library function would be;
// one that only names its argument (std::ranges::begin) is not.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- -I %wgtrace-include -std=c++20 > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
#include <wgtrace/wgtrace.h>

#include <ranges>
#include <string>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float (&a)[8],
                        std::string (&s)[8]) {
  unsigned i = wg.id[0];
  std::ranges::swap(s[i], s[i + 1]);
  // WARN: {{.*}}.cc:[[@LINE-1]]:3: warning: call 'std::ranges::swap(s[i], s[i + 1])' is not traced: 'std::ranges::swap' is given kernel memory ('s[i]') by pointer or reference and reads or writes it in library code, which wgtrace does not record
  float *first = std::ranges::begin(a);
  first[i] = 1;
}
