// A project header's class whose destructor writes kernel memory
// (destructors.cc): a member function, not copied; each object a kernel
// makes of it, or of a class holding one, is reported.
#pragma once
#include <cstdlib>

namespace lib {
struct Flush {
  float *dst;
  float v;
  ~Flush() { *dst = v; }
};
// Their destructors are implicit or defaulted, but run Flush's: each
// object is reported as a Flush would be.
struct Pair {
  Flush first;
  int n;
};
struct Derived : Flush {
  ~Derived() = default;
};
// Releasing what it owns reads or writes none of it: quiet.
struct Owner {
  float *p;
  ~Owner() { std::free(p); }
};
} // namespace lib
