// A helper of a project header that adds with `omp atomic`, as miniFE's
// sum_into_row adds each element's matrix into the global one.
inline void add_into(double *row, int k, double value) {
#pragma omp atomic
  row[k] += value;
}
