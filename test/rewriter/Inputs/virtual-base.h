// A class hierarchy of a project header (virtual-calls.cc): the kernels'
// virtual calls on a Base may run InHeader::get, which is not
// instrumented.
#ifndef VIRTUAL_BASE_H
#define VIRTUAL_BASE_H

struct Base {
  virtual ~Base() {}
  virtual double get(const double *p) const = 0;
  virtual double twice(double x) const { return 2.0 * x; }
};

struct InHeader : Base {
  double k;
  double get(const double *p) const override { return p[1] * k; }
};

#endif
