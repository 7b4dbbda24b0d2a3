// Project header classes whose member functions are declared in the class
// and defined after it (out-of-class-members.cc), as Quicksilver's
// ParticleVault::pushParticle is: copied as free functions like the ones
// defined in their class, except where the definition says something a
// copy cannot.
#pragma once
#define HOST_DEVICE

namespace lib {
class Vault {
public:
  void push(float x);
  void invalidate(int i);
  float sum2(int i) const;
  float scaled(int i, float f = 2) const;
  int size() const { return n; }

private:
  float v[8] = {};
  int n = 0;
  int slot(int i) const { return i & 7; }
};

HOST_DEVICE
inline void Vault::
push(float x)
{
  v[slot(n)] = x;
  ++n;
}

inline void lib::
Vault::invalidate(int i) { v[slot(i)] = -1; }

inline float Vault::sum2(int i) const { return v[i] + this->v[i + 1]; }

inline float Vault::scaled(int i, float f) const { return v[i] * f; }

struct Grid {
  using Index = int;
  float *cells;
  float at(int i) const;
};

inline float Grid::at(Index i) const { return cells[i]; }
} // namespace lib

namespace geo {
struct Pair {
  float *p;
  float first() const;
};
} // namespace geo

inline float geo::Pair::first() const { return p[0]; }
