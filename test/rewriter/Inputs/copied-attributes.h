// Helpers with attributes before them (helpers-copied-attributes.cc).
#pragma once
[[nodiscard]] inline float nd(const float *p) { return p[0]; }
[[gnu::always_inline]] inline float ga(const float *p) { return p[1]; }
[[nodiscard, gnu::pure]] inline float both(const float *p) { return p[2]; }
__attribute__((pure)) inline float gp(const float *p) { return p[3]; }
#define FORCE_INLINE inline __attribute__((always_inline))
FORCE_INLINE float fi(const float *p) { return p[4]; }
