// Containers: operator[], front(), back(), at(), data()[i] and iterators of
// std::vector, std::array, std::span and user containers record the element
// the kernel touches, never the container's own fields (size(), the data
// pointer). Elements of a local std::array are locals; a local std::vector's
// elements live on the heap and are recorded.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <array>
#include <span>
#include <vector>

struct P {
  float x, y;
};

template <class T> struct Buffer {
  T *ptr;
  int n;
  T &operator[](int i) { return ptr[i]; }
  // CHECK: T &operator[](int i) { return ptr[i]; }
  T *begin() { return ptr; }
  T *end() { return ptr + n; }
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::vector<float> &v,
                        std::array<float, 4> &ga, std::span<float> sp,
                        std::vector<P> &ps, std::vector<std::vector<int>> &vv,
                        Buffer<double> buf) {
  int i = static_cast<int>(wg.id[0]);
  std::array<float, 4> acc{};
  std::vector<float> local(4);
  v[i] = ga[i] + sp[i];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, v[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, ga[i]) + WGTRACE_LOAD_AT({{[0-9]+}}, sp[i]);
  v.front() = v.back();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, v.front()) = WGTRACE_LOAD_AT({{[0-9]+}}, v.back());
  v.data()[i] += 1;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, v.data()[i]) += 1;
  acc[i] += ga.data()[i];
  // CHECK: acc[i] += WGTRACE_LOAD_AT({{[0-9]+}}, ga.data()[i]);
  acc.data()[1] = acc.front();
  // CHECK: acc.data()[1] = acc.front();
  local[i] = 2;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, local[i]) = 2;
  auto it = v.begin();
  *it = 3;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, *it) = 3;
  ++it;
  // CHECK: ++it;
  float f = *it;
  // CHECK: float f = WGTRACE_LOAD_AT({{[0-9]+}}, *it);
  auto pit = ps.begin();
  pit->x = f;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, pit->x) = f;
  vv[i][0]++;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, vv[i][0])++;
  sp.front() = v.at(i) + static_cast<float>(v.size());
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, sp.front()) = WGTRACE_LOAD_AT({{[0-9]+}}, v.at(i)) + static_cast<float>(v.size());
  buf[i] = buf[0] * 2;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, buf[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, buf[0]) * 2;
  for (double x : buf)
    f += static_cast<float>(x);
  // CHECK: for (double x : ::wgtrace::detail::loads(WGTRACE_ACCESS_SITE({{[0-9]+}}), buf))
  ps[i] = ps[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, ps[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, ps[0]);
  ps[1].y = acc.back() + f + local[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, ps[1].y) = acc.back() + f + WGTRACE_LOAD_AT({{[0-9]+}}, local[0]);
}
