//===- span_template.cc - A template kernel over std::span ----------------===//
//
// saxpy<T> written once as a template and dispatched for float and double:
// the trace shows 4-byte accesses for the float launch and 8-byte ones for
// the double launch, through std::span's operator[].
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <span>
#include <vector>

template <class T>
WGTRACE_DISPATCH void saxpy(const wgtrace::Workgroup &wg, T a,
                            std::span<const T> x, std::span<T> y) {
  size_t per_workgroup = x.size() / wg.count[0];
  for (size_t i = wg.id[0] * per_workgroup; i < (wg.id[0] + 1) * per_workgroup;
       ++i)
    y[i] = a * x[i] + y[i];
}

template <class T> static bool run(const char *name) {
  std::vector<T> x(1024), y(1024);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = T(i % 10);
    y[i] = T(1);
  }
  wgtrace::dispatch(saxpy<T>, wgtrace::Grid{4, 1, 1}, T(2),
                    std::span<const T>(x), std::span<T>(y));
  for (size_t i = 0; i < y.size(); ++i)
    if (y[i] != T(2) * T(i % 10) + T(1)) {
      std::fprintf(stderr, "span_template<%s>: wrong at %zu\n", name, i);
      return false;
    }
  std::printf("span_template<%s>: %zu elements ok\n", name, y.size());
  return true;
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  return run<float>("float") && run<double>("double") ? 0 : 1;
}
