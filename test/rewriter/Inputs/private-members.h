// Project header classes whose members use private and protected members
// (private-members.cc), as LULESH's Domain does: copied as free functions
// that name those members through explicit instantiations, except what no
// pointer can name (a bit-field, a member reached through a private base,
// a static constant); a class template's, through tag templates.
#pragma once
#include <vector>

typedef int Index_t;
typedef double Real_t;

class Domain {
public:
  Index_t numElem() const { return m_numElem; }
  Real_t &x(Index_t idx) { return m_x[idx]; }
  Index_t *nodeElemCornerList(Index_t idx) {
    return &m_nodeElemCornerList[m_nodeElemStart[idx]];
  }
  Real_t weighted(Index_t idx) const {
    return scaled(clampIndex(idx)) + pick(idx) + pick(0.5) + s_bias;
  }
  void bump(Index_t idx) { this->m_x[idx] += m_scale; }

private:
  Real_t scaled(Index_t idx) const { return m_scale * m_x[idx]; }
  Real_t pick(Index_t idx) const { return m_x[idx]; }
  Real_t pick(Real_t t) const { return t * m_scale; }
  static Index_t clampIndex(Index_t idx) { return idx < 0 ? 0 : idx; }
  inline static Real_t s_bias = 0.25;
  Index_t m_numElem = 0;
  Real_t m_scale = 1;
  std::vector<Real_t> m_x;
  std::vector<Index_t> m_nodeElemCornerList, m_nodeElemStart;
};

// Its own private data, and another object's.
class Vec {
public:
  Vec &operator+=(const Vec &o) {
    v[0] += o.v[0];
    return *this;
  }
  Real_t x() const { return v[0]; }

private:
  Real_t v[3];
};

// A protected member reached from a derived class.
struct Base {
protected:
  Real_t b = 1;
};
struct Derived : Base {
  Real_t twice() const { return b + b; }
};

// Not reachable through a pointer: reported.
class Flags {
public:
  unsigned twice() const { return f + f; }

private:
  unsigned f : 3;
};
struct Open {
  Real_t pub = 1;
};
struct Closed : private Open {
  Real_t twice() const { return pub + pub; }
};
class Fixed {
public:
  double sum() const {
    double t[N] = {v[0], v[1]};
    return t[0] + t[1];
  }

private:
  static constexpr int N = 2;
  double v[N];
};
template <class T> class Box {
public:
  T get() const { return v; }
  T twice() const { return v + v; }

private:
  T v;
};
