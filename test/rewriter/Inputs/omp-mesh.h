// A mesh class as LULESH's Domain (lulesh.h) writes it: member functions
// defined in the class, some using its private fields, which a copy outside the
// class cannot reach.
class Mesh {
public:
  double &force(int i) { return f[i]; }
  int count(int node) { return start[node + 1] - start[node]; }
  bool empty() const { return symm == nullptr; }
  double *f;
  int *symm;

private:
  int *start;
};
