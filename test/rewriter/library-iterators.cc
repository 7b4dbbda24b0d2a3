// A standard algorithm wgtrace does not record takes its iterators by
// value and reads and writes the elements through them in library code:
// given iterators into kernel memory (a vector's, a helper's iterator
// parameter), the call is reported untraced. The iterators' own operators
// (`e - b`) and functions that only make or move iterators touch no
// element and are not.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <vector>

template <class It> double middle(It b, It e) {
  It mid = std::next(b, (e - b) / 2);
  std::shuffle(b, e, std::minstd_rand());
  // WARN-DAG: {{.*}}.cc:20:3: warning: call 'std::shuffle(b, e, std::minstd_rand())' is not traced: 'std::shuffle' is given kernel memory ('b') through an iterator and reads or writes it in library code, which wgtrace does not record
  return *mid;
}

WGTRACE_DISPATCH void median(const wgtrace::Workgroup &wg,
                             std::vector<double> *v, double *out) {
  out[wg.id[0]] = middle(v->begin(), v->end());
  std::uninitialized_fill(v->begin(), v->end(), 0.5);
  // WARN-DAG: {{.*}}.cc:28:3: warning: call 'std::uninitialized_fill(v->begin(), v->end(), 0.5)' is not traced: 'std::uninitialized_fill' is given kernel memory ('v->begin()') through an iterator and reads or writes it in library code, which wgtrace does not record
  auto r = std::make_reverse_iterator(v->end());
  out[wg.id[0] + 1] = *r;
}

void run(std::vector<double> &v, double *out) {
  wgtrace::dispatch(median, wgtrace::Grid{1, 1, 1}, &v, out);
}
