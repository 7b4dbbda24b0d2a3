// No kernel yet: its function is instrumented for other sources' kernels
// (none calls it), and runs as written when main calls it.
void runOther(float *Data, unsigned N) {
  for (unsigned I = 0; I < N; ++I)
    Data[I] += 1;
}
