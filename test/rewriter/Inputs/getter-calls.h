// A project header whose class template has const members of one return
// statement that call work (getter-calls.cc), as siv::BasicPerlinNoise's
// octave2D_01() returns remap(octave2D(...)), which reads m_permutation.
#pragma once
namespace lib {
template <class T> class Table {
public:
  T sum2(int i) const { return at(i) + at(i + 1); }
  T at(int i) const;
  int size() const { return n; }
  bool empty() const { return size() == 0; }

private:
  T v[4] = {1, 2, 3, 4};
  int n = 4;
};

template <class T> inline T Table<T>::at(int i) const {
  const T r = v[i & 3];
  return r;
}
} // namespace lib
