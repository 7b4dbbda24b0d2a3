// gapbs's BuilderBase and CSRGraph (src/builder.h, src/graph.h): static
// member functions of class templates that hold OpenMP loops
// (openmp-header-static.cc), called through a typedef of a
// specialization, by their name alone from another static member, and
// through another class template's name written with the caller's
// parameters.
#pragma once
#include <cstddef>
#include <cstdint>

typedef int64_t SGOffset;

template <class NodeID_, class DestID_ = NodeID_, bool MakeInverse = true>
class CSRGraph {
public:
  static DestID_ **GenIndex(const SGOffset *offsets, NodeID_ length,
                            DestID_ *neighs) {
    DestID_ **index = new DestID_ *[length];
#pragma omp parallel for
    for (NodeID_ n = 0; n < length; n++)
      index[n] = neighs + offsets[n];
    return index;
  }
};

template <typename NodeID_, typename DestID_ = NodeID_,
          typename WeightT_ = NodeID_, bool invert = true>
class BuilderBase {
public:
  static void ParallelPrefixSum(const NodeID_ *degrees, SGOffset *prefix,
                                size_t n) {
    SGOffset total = 0;
#pragma omp parallel for reduction(+ : total)
    for (size_t i = 0; i < n; i++)
      total += degrees[i];
    prefix[n] = total;
  }
  static DestID_ **MakeIndex(const NodeID_ *degrees, SGOffset *offsets,
                             NodeID_ n, DestID_ *neighs) {
    ParallelPrefixSum(degrees, offsets, n);
    return CSRGraph<NodeID_, DestID_>::GenIndex(offsets, n, neighs);
  }
};

typedef BuilderBase<int> Builder;
