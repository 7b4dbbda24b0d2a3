//===- helper.cc - A kernel that calls a helper function ------------------===//
//
// The blur kernel reads through clamped_load(), an ordinary function of the
// project: wgtrace-rewrite instruments it too, and its loads belong to the
// workgroup that called it. WGTRACE_NO_INSTRUMENT keeps checked_index()
// out of the trace.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <vector>

WGTRACE_NO_INSTRUMENT static int checked_index(int i, int n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

static float clamped_load(const float *row, int i, int n) {
  return row[checked_index(i, n)];
}

WGTRACE_DISPATCH void blur(const wgtrace::Workgroup &wg, const float *in,
                           float *out, int n) {
  int begin = int(wg.id[0]) * 64;
  for (int i = begin; i < begin + 64; ++i)
    out[i] = (clamped_load(in, i - 1, n) + clamped_load(in, i, n) +
              clamped_load(in, i + 1, n)) /
             3.0f;
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  const int n = 256;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 9);
  wgtrace::dispatch(blur, wgtrace::Grid{n / 64, 1, 1}, in.data(), out.data(),
                    n);
  for (int i = 0; i < n; ++i) {
    float expected =
        (in[checked_index(i - 1, n)] + in[i] + in[checked_index(i + 1, n)]) /
        3.0f;
    if (out[i] != expected) {
      std::fprintf(stderr, "helper: wrong at %d\n", i);
      return 1;
    }
  }
  std::printf("helper: %d points ok\n", n);
  return 0;
}
