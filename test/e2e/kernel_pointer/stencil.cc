// Two stencil kernels of one signature, chosen at run time and launched
// through a function pointer, as PRK's stencil launches star1..star5: the
// dispatch site names the pointer (`stencil`), not the kernel that runs,
// and each kernel records its own buffer parameters (in, out, weights).
// Both kernels run, one after the other, through the one dispatch site;
// prints out.
#include <wgtrace/wgtrace.h>

#include <cstdio>

namespace {

constexpr int kWidth = 8;
constexpr int kGroups = 4;

} // namespace

WGTRACE_DISPATCH void star1(const wgtrace::Workgroup &wg, const float *in,
                            float *out, const float *weights) {
  int row = 2 + static_cast<int>(wg.id[0]);
  for (int j = 1; j < kWidth - 1; ++j)
    out[row * kWidth + j] =
        weights[0] * (in[row * kWidth + j - 1] + in[row * kWidth + j + 1]);
}

WGTRACE_DISPATCH void star2(const wgtrace::Workgroup &wg, const float *in,
                            float *out, const float *weights) {
  int row = 2 + static_cast<int>(wg.id[0]);
  for (int j = 2; j < kWidth - 2; ++j)
    out[row * kWidth + j] =
        weights[0] * (in[row * kWidth + j - 1] + in[row * kWidth + j + 1]) +
        weights[1] * (in[row * kWidth + j - 2] + in[row * kWidth + j + 2]);
}

int main() {
  static float in[(kGroups + 4) * kWidth], out[(kGroups + 4) * kWidth];
  static const float weights[] = {0.5f, 0.25f};
  for (int i = 0; i < (kGroups + 4) * kWidth; ++i)
    in[i] = static_cast<float>(i % 7);
  for (int radius = 1; radius <= 2; ++radius) {
    void (*stencil)(const wgtrace::Workgroup &, const float *, float *,
                    const float *) = nullptr;
    switch (radius) {
    case 1:
      stencil = star1;
      break;
    default:
      stencil = star2;
      break;
    }
    wgtrace::dispatch(stencil, wgtrace::Grid{kGroups, 1, 1}, in, out, weights);
  }
  for (float v : out)
    std::printf("%g ", v);
  std::printf("\n");
  return 0;
}
