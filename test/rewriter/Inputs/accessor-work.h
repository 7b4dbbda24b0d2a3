// A project header whose classes have accessors, operators and
// constructors (accessor-work.cc): those that only name memory from the
// object's fields and their parameters stay quiet; those that read or
// write memory beyond the object are helpers, copied as free functions
// (Vec2's; Domain's too, private fields and all) when they can be, else
// reported at each call.
#pragma once
#include <cassert>
#include <vector>

namespace lib {
class Domain {
public:
  // LULESH's lulesh.h: the address needs an element of m_nodeElemStart.
  int *nodeElemCornerList(int idx) {
    return &m_nodeElemCornerList[m_nodeElemStart[idx]];
  }
  // Accessors that only name memory.
  double &x(int idx) { return m_x[idx]; }
  int *nodelist(int idx) { return &m_nodelist[8 * idx]; }
  int numNode() const { return m_numNode; }
  const double &at(int idx) const {
    assert(idx < m_numNode);
    return m_x[idx];
  }
  double first() const { return m_first[0]; }

private:
  std::vector<int> m_nodeElemCornerList, m_nodeElemStart, m_nodelist;
  std::vector<double> m_x;
  double m_first[2] = {0, 0};
  int m_numNode = 0;
};

template <class T> struct View {
  T *data_;
  int stride_;
  T &operator()(int i, int j) const { return data_[i * stride_ + j]; }
  T *data() const { return data_; }
  T get(int i) const { return data_[i]; }
};

struct Sum {
  int n;
  float operator()(const float *a) const {
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += a[k];
    return s;
  }
};

struct Fill {
  Fill(float *p, int n) {
    for (int k = 0; k < n; ++k)
      p[k] = 0;
  }
};

struct Vec2 {
  float x, y;
  Vec2 scaled(float f) const { return Vec2{x * f, y * f}; }
  Vec2 operator+(const Vec2 &o) const { return Vec2{x + o.x, y + o.y}; }
  // Reads only what its parameter designates: quiet when that is a
  // temporary (Quicksilver's MC_Nearest_Facet::operator=).
  Vec2 &operator=(const Vec2 &o) {
    x = o.x;
    y = o.y;
    return *this;
  }
};
} // namespace lib
