// No kernel yet: compiled as written.
void runOther(float *Data, unsigned N) {
  for (unsigned I = 0; I < N; ++I)
    Data[I] += 1;
}
