// Not rewritten: a call through a pointer that reaches it runs it as it is.
void addElsewhere(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] += 2.0f;
}
