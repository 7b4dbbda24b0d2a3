// A source of the target that is not rewritten (whole-target-run.test).
#include "whole-target.h"

void notRewritten(float *x) { x[7] = 7.0f; }
template <class T> T twice(T v) { return v + v; }
template float twice<float>(float);
Made::Made(float *p) : p(p) {}
