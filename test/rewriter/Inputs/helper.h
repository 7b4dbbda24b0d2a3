// A project header with a helper a kernel calls (helpers-in-header.cc).
#pragma once
inline float header_sum(const float *p) { return p[0] + p[1]; }
WGTRACE_NO_INSTRUMENT inline void header_quiet(float *p) { p[0] = 0; }
