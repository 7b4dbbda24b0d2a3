// Project helpers that kernels in helpers-copied.cc call: copied into the
// rewritten file, instrumented, under names of their own.
#pragma once

namespace lib {

float later(const float *p);

inline float first(const float *p) { return p[0]; }

template <class T> T twice(const T *p) { return p[0] * 2; }

inline float over(const float *p) { return p[1]; }
inline double over(const double *p) { return p[1]; }

// Calls a helper that is defined further down: its copy is declared first.
inline void chain(float *p) {
  p[2] = later(p) + first(p);
}

inline float later(const float *p) { return p[3]; }

inline int counter(const int *p) {
  static int calls = 0;
  return p[0] + ++calls;
}

struct Acc {
  float *data;
  void add(float v) { data[0] += v; }
};

namespace {
inline void hidden(float *p) { p[4] = 1; }
} // namespace

} // namespace lib
