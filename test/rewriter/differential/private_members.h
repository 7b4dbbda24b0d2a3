// A mesh class as LULESH's Domain writes it, in a project header
// (kernels/private_members.cc): one-field getters of private fields, a
// helper member whose address needs an element load, a member calling a
// private one through `this`, a member storing through a private pointer.
// The rewriter copies them into the kernel's file as free functions that
// name the private members through explicit instantiations.
#ifndef WGTRACE_TEST_DIFFERENTIAL_PRIVATE_MEMBERS_H
#define WGTRACE_TEST_DIFFERENTIAL_PRIVATE_MEMBERS_H

namespace pm {
class Domain {
public:
  Domain(double *x, int *start, int numElem, double scale)
      : m_x(x), m_start(start), m_numElem(numElem), m_scale(scale) {}
  int numElem() const { return m_numElem; } // @num
  double scale() const { return m_scale; }  // @scale
  double &x(int i) { return m_x[i]; }
  int *corner(int i) { return &m_start[m_start[i]]; }          // @corner
  double weighted(int i) const { return scaled(i) + m_scale; } // @weighted
  void bump(int i) { m_x[i] += m_scale; }                      // @bump

private:
  double scaled(int i) const { return m_scale * m_x[i]; } // @scaled
  double *m_x;
  int *m_start;
  int m_numElem;
  double m_scale;
};
} // namespace pm

#endif // WGTRACE_TEST_DIFFERENTIAL_PRIVATE_MEMBERS_H
