// gapbs's pvector (src/pvector.h): a class template whose member holds an
// OpenMP loop over its private pointers, and a member typedef returned by
// a member function.
#pragma once
#include <cstddef>
template <typename T_> class pvector {
public:
  explicit pvector(size_t n) : start_(new T_[n]), end_size_(start_ + n) {}
  ~pvector() { delete[] start_; }
  void fill(T_ init_val) {
#pragma omp parallel for
    for (T_ *ptr = start_; ptr < end_size_; ptr++)
      *ptr = init_val;
  }
  typedef T_ *iterator;
  iterator begin() const { return start_; }
  iterator end() const { return end_size_; }

private:
  T_ *start_;
  T_ *end_size_;
};
