// A particle vault as Quicksilver's ParticleVault writes it, in a project
// header (kernels/out_of_class.cc): members declared in the class and
// defined after it, `inline void Vault::push(...)`, with the class named on
// a line of its own, reading and writing private fields and calling a
// private member through `this`. The rewriter copies them into the
// kernel's file as free functions, as it does members defined in the class.
#ifndef WGTRACE_TEST_DIFFERENTIAL_OUT_OF_CLASS_H
#define WGTRACE_TEST_DIFFERENTIAL_OUT_OF_CLASS_H

namespace ooc {
class Vault {
public:
  Vault(double *v, int *species) : m_v(v), m_species(species) {}
  void push(int i, double x);
  void invalidate(int i);
  double sum(int i) const;

private:
  int slot(int i) const { return 2 * i; } // @slot
  double *m_v;
  int *m_species;
};

inline void Vault::push(int i, double x) {
  m_v[slot(i)] = x;       // @push
  m_species[slot(i)] = 1; // @push2
}

inline void Vault::invalidate(int i) { m_species[slot(i) + 1] = -1; } // @inv

inline double Vault::sum(int i) const {
  return m_v[slot(i)] + m_v[slot(i) + 1]; // @sum
}
} // namespace ooc

#endif // WGTRACE_TEST_DIFFERENTIAL_OUT_OF_CLASS_H
