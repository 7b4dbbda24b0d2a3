// Binary searches over sorted kernel memory: lower_bound, upper_bound,
// equal_range and binary_search, with the library's comparison, a library
// functor and a lambda written in the kernel, their std::ranges forms, and
// the insertion of miniFE's sum_into_row (a helper that finds each column
// with lower_bound and adds into the coefficient beside it).
#include "oracle.h"

#include <algorithm>
#include <functional>
#include <span>
#include <vector>

constexpr unsigned N = 27;

// miniFE's sum_into_row (SparseMatrix_functions.hpp), the column it looks
// for read into a local first: given `input_indices[i]` itself,
// lower_bound reads it through its reference at every probe, inside the
// library, which wgtrace reports untraced.
void sumIntoRow(int row_len, int *row_indices, double *row_coefs,
                int num_inputs, const int *input_indices,
                const double *input_coefs) {
  for (int i = 0; i < num_inputs; ++i) {
    const int col = input_indices[i];
    int *loc = std::lower_bound(row_indices, row_indices + row_len, col);
    if (loc - row_indices < row_len && *loc == input_indices[i])
      row_coefs[loc - row_indices] += input_coefs[i];
  }
}

WGTRACE_DISPATCH void searches(const wgtrace::Workgroup &wg, const int *cols,
                               const float *x, std::vector<double> &v,
                               long *out) {
  const int *c = cols + wg.id[0] * N;
  const float *f = x + wg.id[0] * N;
  long *o = out + wg.id[0] * 12;
  o[0] = std::lower_bound(c, c + N, 7) - c;
  o[1] = std::upper_bound(c, c + N, 7) - c;
  auto [lo, hi] = std::equal_range(c, c + N, 12);
  o[2] = hi - lo;
  o[3] = std::binary_search(c, c + N, 40);
  o[4] = std::lower_bound(f, f + N, 3.5f, std::less<float>()) - f;
  o[5] = std::upper_bound(f, f + N, 3.5f,
                          [](float u, const float &w) { return u < w; }) -
         f;
  o[6] = std::lower_bound(v.begin(), v.end(), 2.25) - v.begin();
  std::span<const int> s(c, N);
  o[7] = std::ranges::lower_bound(s, 20) - s.begin();
  o[8] = std::ranges::upper_bound(c, c + N, 20) - c;
  o[9] = std::ranges::equal_range(s, 3).size();
  o[10] = std::ranges::binary_search(f, f + N, 6.0f, std::ranges::less{});
}

WGTRACE_DISPATCH void sumInto(const wgtrace::Workgroup &wg, int *cols,
                              double *coefs, const int *in, const double *vals) {
  unsigned row = wg.id[0];
  sumIntoRow(N, cols + row * N, coefs + row * N, 8, in + row * 8,
             vals + row * 8);
}

int main() {
  std::vector<int> cols(2 * N), in(16);
  std::vector<float> x(2 * N);
  std::vector<double> coefs(2 * N), vals(16), v(30);
  std::vector<long> out(24);
  for (unsigned r = 0; r < 2; ++r)
    for (unsigned i = 0; i < N; ++i) {
      cols[r * N + i] = static_cast<int>(i * 3 / 2 + r);
      x[r * N + i] = static_cast<float>(i) * 0.5f;
      coefs[r * N + i] = static_cast<double>(i);
    }
  for (unsigned i = 0; i < 16; ++i) {
    in[i] = static_cast<int>((i * 7) % 41);
    vals[i] = static_cast<double>(i) * 0.25;
  }
  for (unsigned i = 0; i < v.size(); ++i)
    v[i] = static_cast<double>(i) * 0.125;
  oracle::buffer("cols", cols.data(), cols.size());
  oracle::buffer("x", x.data(), x.size());
  oracle::buffer("coefs", coefs.data(), coefs.size());
  oracle::buffer("in", in.data(), in.size());
  oracle::buffer("vals", vals.data(), vals.size());
  oracle::buffer("v", v.data(), v.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::run(searches, 2, cols.data(), x.data(), std::ref(v), out.data());
  oracle::run(sumInto, 2, cols.data(), coefs.data(), in.data(), vals.data());
  return oracle::finish();
}
