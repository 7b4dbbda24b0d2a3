// Class templates of a project header (class-templates.cc), as Vec3<T>
// and Box<T> headers write them: members copied as function templates
// over the class's parameters, and those that cannot be.
#pragma once
namespace geo {
template <class T, int N = 3> struct Vec {
  T e[N];
  T x() const { return e[0]; }
  T norm2() const { return dot(*this); }
  T dot(const Vec &o) const {
    T s = 0;
    for (int i = 0; i < N; ++i)
      s += e[i] * o.e[i];
    return s;
  }
  Vec &operator+=(const Vec<T, N> &o) {
    for (int i = 0; i < N; ++i)
      e[i] += o.e[i];
    return *this;
  }
  Vec scaled(T t) const {
    Vec r;
    for (int i = 0; i < N; ++i)
      r.e[i] = e[i] * t;
    return r;
  }
};
} // namespace geo

// Private members: a field on its own object and on another of its class,
// a private member function through `this`, a static member.
template <class T> class Acc {
public:
  T get() const { return v; }
  T sum(const Acc &o) const { return v + o.v + half(); }
  T scaledBy() const { return v * s_scale; }
  template <class U> U as() const { return static_cast<U>(v); }
  T mixed(const Acc<double> &o) const { return v + static_cast<T>(o.v); }
  friend class Acc<float>;

private:
  T half() const { return v / 2; }
  T v = 1;
  static inline T s_scale = 2;
};

// A protected member of a base reached through `this->`.
template <class T> struct PBase {
protected:
  T b = 1;
};
template <class T> struct PDerived : PBase<T> {
  T get() const { return this->b; }
};

// A partial specialization's member.
template <class T> struct Ptr;
template <class T> struct Ptr<T *> {
  T *p;
  T get() const { return *p; }
};
