// The target's source that defines what whole-target-kernel.cc calls:
// with --whole-target each function other files may call is instrumented
// in place and registered; show() passes kernel memory to the library,
// which is not warned about here (no kernel of this file calls it) but
// registered as instrumented in part. A static function and the members
// of a class of this file are no other file's.
#include "whole-target.h"

#include <cstdio>

static float twiceOf(float v) { return v + v; }

void scale(float *x, int n, float k) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * k;
}

float total(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return twiceOf(s) / 2;
}

float total(const double *x, int n) { return float(x[0] * n); }

void Grid::fill(float v) {
  for (int i = 0; i < n; ++i)
    data[i] = v;
}

float Grid::at(int i) const { return data[i]; }

float *Grid::begin() const { return data; }

void show(const char *s) { std::printf("%s\n", s); }

struct Local {
  float f(float *p) { return p[0]; }
};

float useLocal(float *p) { return Local().f(p); }
