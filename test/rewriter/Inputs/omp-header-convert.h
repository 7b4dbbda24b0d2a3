// A class template's member holding an OpenMP loop, whose copy is a
// function template over the class's parameters (openmp-header-convert.cc).
#pragma once
template <class T> struct Field {
  T *d;
  int n;
  void scale(T f) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      d[i] *= f;
  }
};
