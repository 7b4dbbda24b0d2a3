//===- Intervals.cc -------------------------------------------------------===//

#include "analyses/Intervals.h"

#include <algorithm>

namespace wgtrace::viewer {

void coalesce(std::vector<Interval> &Ranges, uint64_t Gap) {
  if (Ranges.size() < 2)
    return;
  std::sort(Ranges.begin(), Ranges.end(),
            [](const Interval &A, const Interval &B) { return A.Lo < B.Lo; });
  size_t Out = 0;
  for (size_t I = 1; I < Ranges.size(); ++I) {
    if (Ranges[I].Lo <= Ranges[Out].Hi || Ranges[I].Lo - Ranges[Out].Hi <= Gap)
      Ranges[Out].Hi = std::max(Ranges[Out].Hi, Ranges[I].Hi);
    else
      Ranges[++Out] = Ranges[I];
  }
  Ranges.resize(Out + 1);
}

void IntervalAccumulator::append(uint64_t Lo, uint64_t Hi) {
  Ranges.push_back({Lo, Hi});
  if (Ranges.size() >= 2 * Compacted + 1024) {
    coalesce(Ranges, Gap);
    Compacted = Ranges.size();
  }
}

const std::vector<Interval> &IntervalAccumulator::ranges() {
  if (Compacted != Ranges.size()) {
    coalesce(Ranges, Gap);
    Compacted = Ranges.size();
  }
  return Ranges;
}

} // namespace wgtrace::viewer
