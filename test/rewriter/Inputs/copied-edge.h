// Helpers for helpers-copied-edge.cc: what can and cannot be copied.
#pragma once
template <class T> T g(const T *p) { return p[0]; }
template <> inline float g<float>(const float *p) { return p[1]; }
inline float dflt(const float *p, int n = 2);
inline float dflt(const float *p, int n) { return p[n]; }
template <class T = float> T tdef(const T *p);
template <class T> T tdef(const T *p) { return p[0]; }
inline int fact(const int *p, int n) { return n ? p[n] * fact(p, n - 1) : 1; }
extern "C" {
inline float cfun(const float *p) { return p[5]; }
}
inline float own_default(const float *p, int n = 6) { return p[n]; }
// Explicit specializations are not copied: one that touches no memory (its
// by-value parameter only) loses nothing and is not reported, one that
// reads a global is.
template <class T> T mag(T x) { return x < 0 ? -x : x; }
template <> inline double mag<double>(double x) { return __builtin_fabs(x); }
inline float gscale = 2.0f;
template <> inline float mag<float>(float x) { return x * gscale; }
