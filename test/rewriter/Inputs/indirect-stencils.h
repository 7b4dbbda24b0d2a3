// Functions of a project header that a kernel reaches through a pointer.
inline void star1(int n, const float *in, float *out) {
  for (int i = 1; i < n - 1; ++i)
    out[i] += in[i + 1] - in[i - 1];
}
namespace lib {
template <int R> void starR(int n, const float *in, float *out) {
  for (int i = R; i < n - R; ++i)
    out[i] += in[i + R];
}
inline void counted(int n, const float *in, float *out) {
  static int Calls = 0;
  out[0] = in[n - 1] + static_cast<float>(++Calls);
}
} // namespace lib
