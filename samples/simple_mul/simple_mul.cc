//===- simple_mul.cc - IREE's simple_mul sample as a C++ kernel -----------===//
//
// c = a * b over 16384 floats in 4 workgroups of 4096 elements, the example
// IREE instruments in its dispatch instrumentation walkthrough.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cstdint>
#include <cstdio>
#include <vector>

WGTRACE_DISPATCH void simple_mul(const wgtrace::Workgroup &wg, const float *a,
                                 const float *b, float *c,
                                 uint32_t elements_per_workgroup) {
  uint32_t begin = wg.id[0] * elements_per_workgroup;
  for (uint32_t i = begin; i < begin + elements_per_workgroup; ++i)
    c[i] = a[i] * b[i];
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  constexpr uint32_t kWorkgroups = 4;
  constexpr uint32_t kPerWorkgroup = 4096;
  constexpr uint32_t kElements = kWorkgroups * kPerWorkgroup;
  std::vector<float> a(kElements, 2.0f), b(kElements, 4.0f), c(kElements);

  wgtrace::dispatch(simple_mul, wgtrace::Grid{kWorkgroups, 1, 1}, a.data(),
                    b.data(), c.data(), kPerWorkgroup);

  uint32_t wrong = 0;
  for (uint32_t i = 0; i < kElements; ++i)
    if (c[i] != 8.0f)
      ++wrong;
  if (wrong) {
    std::fprintf(stderr, "simple_mul: %u of %u results are not 8.0\n", wrong,
                 kElements);
    return 1;
  }
  std::printf("simple_mul: %u results, all 8.0\n", kElements);
  return 0;
}
