// A function object of a project header (functor-helpers.cc): a library
// call runs its original operator, which is not instrumented.
#ifndef FUNCTOR_HEADER_H
#define FUNCTOR_HEADER_H

struct Count {
  static inline unsigned long calls = 0;
  void operator()(double) const { ++calls; }
};

#endif
