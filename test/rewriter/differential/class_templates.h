// Class templates as Vec3<T> and Box<T> headers write them, in a project
// header (kernels/class_templates.cc): a one-field getter of a private
// field, a getter of a public element, a member calling another through
// `this`, a compound assignment, and the class's non-type parameter N in
// the bodies. The rewriter copies each member as a function template over
// the class's parameters, called with the object's template arguments;
// the private field is named through a tag template specialized for
// Box<float>.
#ifndef WGTRACE_TEST_DIFFERENTIAL_CLASS_TEMPLATES_H
#define WGTRACE_TEST_DIFFERENTIAL_CLASS_TEMPLATES_H

namespace ct {
template <class T> class Box {
public:
  explicit Box(T v) : m_v(v) {}
  T get() const { return m_v; } // @get

private:
  T m_v;
};

template <class T, int N = 2> struct Vec {
  T e[N];
  T x() const { return e[0]; } // @x
  T dot(const Vec &o) const {
    return e[0] * o.e[0] + e[N - 1] * o.e[N - 1]; // @dot
  }
  T norm2() const { return dot(*this); }
  Vec &operator+=(const Vec &o) {
    e[0] += o.e[0];         // @add0
    e[N - 1] += o.e[N - 1]; // @add1
    return *this;
  }
};
} // namespace ct

#endif // WGTRACE_TEST_DIFFERENTIAL_CLASS_TEMPLATES_H
