// A project header's class whose destructor writes kernel memory
// (destructors.cc): a member function, not copied; each object a kernel
// makes of it is reported.
#pragma once
#include <cstdlib>

namespace lib {
struct Flush {
  float *dst;
  float v;
  ~Flush() { *dst = v; }
};
// Releasing what it owns reads or writes none of it: quiet.
struct Owner {
  float *p;
  ~Owner() { std::free(p); }
};
} // namespace lib
