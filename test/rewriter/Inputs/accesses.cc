// Every access form of the first version in one file, for the compile test.
#include <wgtrace/wgtrace.h>

#include <cstdint>

struct Node {
  float v[4];
  Node *next;
  int count;
};

float g_bias;
static int g_hits[8];

namespace kernels {
WGTRACE_DISPATCH void all_forms(const wgtrace::Workgroup &wg, float (*m)[4],
                                Node *n, Node &r, const int *idx, float *out,
                                const float *in, uint32_t len) {
  uint32_t i = wg.id[0];
  float tile[4] = {};
  m[i][1] += in[i];
  n->v[i % 4] = n->next->v[0];
  r.count++;
  --r.v[1];
  out[idx[i]] = in[idx[i]] * g_bias;
  g_hits[i % 8] += 1;
  const float *p = in;
  float *q = out;
  for (uint32_t k = 0; k < len; ++k)
    *q++ = *p++;
  tile[i % 4] = out[0];
  Node copy = n[1];
  n[2] = copy;
  float &ref = out[3];
  ref *= tile[i % 4];
}
} // namespace kernels

void launch(float (*m)[4], Node *n, Node &r, const int *idx, float *out,
            const float *in) {
  wgtrace::dispatch(kernels::all_forms, wgtrace::Grid{2, 1, 1}, m, n, r, idx,
                    out, in, 4u);
}
