// OpenMP code written in a header, as miniBUDE writes its OpenMP model
// (src/omp/fasten.hpp, included by main.cpp): wgtrace-rewrite copies what
// the file calls (zero, Scaler::run) and says so for the rest that runs.
#include <cstddef>

template <class T> struct Scaler {
  void run(T *out, const T *in, std::size_t n) {
#pragma omp parallel
    {
#pragma omp for nowait
      for (std::size_t i = 0; i < n; ++i)
        out[i] = in[i] * 2;
    }
  }
};

inline void zero(float *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    out[i] = 0;
}

// Never instantiated: no code of it runs, nothing is said.
template <class T> void unused(T *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    out[i] = T();
}
