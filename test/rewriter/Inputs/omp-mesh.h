// A mesh class as LULESH's Domain (lulesh.h) writes it: member functions
// defined in the class, which a rewritten file cannot copy.
struct Mesh {
  double &force(int i) { return f[i]; }
  int count(int node) { return start[node + 1] - start[node]; }
  bool empty() const { return symm == nullptr; }
  double *f;
  int *start;
  int *symm;
};
