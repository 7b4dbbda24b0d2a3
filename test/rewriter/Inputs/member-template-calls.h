#pragma once
#include <cstddef>

// CloverLeaf's Buffer2D: `extent<0>()`, a member template called with its
// arguments from the class's other members.
template <typename T> struct Grid2 {
  std::size_t nx, ny;
  T *data;
  template <std::size_t D> std::size_t extent() const { return D == 0 ? nx : ny; }
  template <std::size_t D> std::size_t extent(int pad) const { return extent<D>() + pad; }
  std::size_t cells() const { return extent<0>() * this->extent<1>(); }
  std::size_t padded(const Grid2 &o) const { return o.extent<0>(2) + extent<1>(1); }
  T first() const { return data[extent<0>() - nx]; }
};

struct Line {
  std::size_t n;
  double *data;
  template <int D> std::size_t extent() const { return D == 0 ? n : 1; }
  std::size_t cells() const { return extent<0>() * this->extent<1>(); }
};
