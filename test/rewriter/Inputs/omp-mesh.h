// A mesh class as LULESH's Domain (lulesh.h) writes it: member functions
// defined in the class, count() using a private field of a private type,
// which no code outside the class can name, so no copy can reach it.
class Mesh {
public:
  double &force(int i) { return f[i]; }
  int count(int node) { return nodes.start[node + 1] - nodes.start[node]; }
  bool empty() const { return symm == nullptr; }
  double *f;
  int *symm;

private:
  struct Nodes {
    int *start;
  };
  Nodes nodes;
};
