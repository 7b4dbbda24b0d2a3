// The binary searches (lower_bound, upper_bound, equal_range,
// binary_search, and their std::ranges forms) over kernel memory are
// redirected to their recording versions, as the other algorithms are
// (were reported untraced: miniFE's sum_into_row finds each column of an
// element's row with std::lower_bound). The value sought, taken by
// reference, is read at every probe inside the library: given kernel
// memory itself it is reported untraced.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include <algorithm>
#include <functional>
#include <span>

// CHECK: #include <wgtrace/algorithms.h>

// miniFE's sum_into_row (SparseMatrix_functions.hpp) as it is written.
template <typename GlobalOrdinal, typename Scalar>
void sum_into_row(int row_len, GlobalOrdinal *row_indices, Scalar *row_coefs,
                  int num_inputs, const GlobalOrdinal *input_indices,
                  const Scalar *input_coefs) {
  for (int i = 0; i < num_inputs; ++i) {
    GlobalOrdinal *loc = std::lower_bound(row_indices, row_indices + row_len,
                                          input_indices[i]);
    // CHECK: GlobalOrdinal *loc = ::wgtrace::detail::recorded::lower_bound<'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(row_indices, row_indices + row_len,
    // WARN: {{.*}}.cc:[[@LINE-2]]:43: warning: load of 'input_indices[i]' is not traced: 'std::lower_bound' reads it through a reference, inside the library (pass a local copy to record one load)
    if (loc - row_indices < row_len && *loc == input_indices[i])
      row_coefs[loc - row_indices] += input_coefs[i];
  }
}

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, int *cols, double *coefs,
                        const int *in, const double *vals, long *out) {
  int *c = cols + wg.id[0] * 27;
  sum_into_row(27, c, coefs + wg.id[0] * 27, 8, in, vals);
  int key = in[0];
  out[0] = std::upper_bound(c, c + 27, key, std::less<int>()) - c;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[0]) = ::wgtrace::detail::recorded::upper_bound<'M', 'M', '-', 'L'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(c, c + 27, key, std::less<int>()) - c;
  auto range = std::equal_range(c, c + 27, 5);
  // CHECK: auto range = ::wgtrace::detail::recorded::equal_range<'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(c, c + 27, 5);
  out[1] = range.second - range.first;
  out[2] = std::binary_search(c, c + 27, key);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[2]) = ::wgtrace::detail::recorded::binary_search<'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(c, c + 27, key);
  std::span<int> s(c, 27);
  out[3] = std::ranges::lower_bound(s, 9) - s.begin();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[3]) = ::wgtrace::detail::recorded::ranges::lower_bound<'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(s, 9) - s.begin();
  out[4] = std::ranges::equal_range(c, c + 27, key).size();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[4]) = ::wgtrace::detail::recorded::ranges::equal_range<'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(c, c + 27, key).size();
}
