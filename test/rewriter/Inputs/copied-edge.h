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
