// Functions of a target's other sources, as a project header declares
// them (whole-target*.test).
#pragma once

void scale(float *x, int n, float k);
float total(const float *x, int n);
float total(const double *x, int n);
struct Grid {
  float *data;
  int n;
  void fill(float v);
  float at(int i) const;
  float *begin() const;
};
void show(const char *s);
void notRewritten(float *x);
template <class T> T twice(T v);
struct Made {
  explicit Made(float *p);
  float *p;
};
