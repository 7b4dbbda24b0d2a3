// std::vector's members that write the kernel's vectors: push_back and
// emplace_back of kernel memory and of local values, resize growing and
// shrinking, reserve, assign of a count, a range and a list, insert of one
// value, of copies and of a range, swap; within capacity and with reallocation
// (the new storage comes from the harness's kernel heap, so both builds
// see it at the same offsets). Every element load and store libstdc++
// makes, in its order: a reallocation constructs the new element first,
// then moves the old ones over (memmove: a load and a store per element).
#define ORACLE_KERNEL_HEAP
#include "oracle.h"

#include <cstdio>
#include <functional>
#include <vector>

// Gathers the large inputs of a strided slice and counts the workgroups.
WGTRACE_DISPATCH void gather(const wgtrace::Workgroup &wg,
                             const std::vector<double> &in,
                             std::vector<double> &out, std::vector<int> &seen) {
  out.insert(out.begin() + out.size() / 2, in[wg.id[0]]);
  for (size_t i = wg.id[0]; i < in.size(); i += 3) {
    if (in[i] > 2.0)
      out.push_back(in[i]);
    else
      out.push_back(0.5 * double(i));
  }
  seen.emplace_back(int(wg.id[0]));
  seen.emplace_back();
  seen.emplace_back(seen[0]);
}

// Reshapes a work list: grows and shrinks it, refills it from a table.
WGTRACE_DISPATCH void reshape(const wgtrace::Workgroup &wg,
                              std::vector<double> &work,
                              const std::vector<double> &table,
                              std::vector<float> &weights,
                              std::vector<double> &spare) {
  spare.insert(spare.begin() + 1, table.begin(), table.end());
  work.resize(work.size() + 1 + wg.id[0]);
  work.resize(work.size() + 4);
  work.resize(3);
  work.assign(3, table[1]);
  work.assign(2 * work.capacity() + 1, table[2]);
  work.resize(2);
  work.assign(4, table[3]);
  work.assign(table.begin() + 1, table.begin() + 4);
  work.assign(table.begin(), table.end());
  work.assign({1.0, 2.0, table[0]});
  work.insert(work.begin() + 1, table[2]);
  work.insert(work.end(), table[3]);
  work.insert(work.begin(), 2, table[4]);
  work.insert(work.begin() + 3, table.begin(), table.begin() + 2);
  double local = 4.5;
  work.insert(work.begin() + 1, local);
  work.insert(work.end() - 1, 1, local);
  work.reserve(work.size() + 8);
  work.insert(work.end() - 1, table.begin(), table.begin() + 3);
  work.push_back(work[1]);
  weights.resize(weights.size() + 2, 0.25f);
  weights.resize(weights.size() + 6, float(table[5]));
  weights.resize(1);
  work.swap(spare);
  spare.insert(spare.begin(), spare[2]);
}

int main() {
  std::vector<double> in(14), out, table(7), work, spare;
  std::vector<int> seen;
  std::vector<float> weights;
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = double((i * 5) % 7) * 0.75;
  for (size_t i = 0; i < table.size(); ++i)
    table[i] = 10.0 + double(i);
  // Spare capacity, its bytes set (both builds print them).
  out.assign(3, 0.0);
  out.clear();
  seen.assign(4, 0);
  seen.clear();
  work.assign(6, -1.0);
  work.resize(2);
  spare.assign(8, 9.0);
  spare.resize(3);
  weights.assign(3, 1.0f);
  weights.resize(2);
  oracle::buffer("in", in.data(), in.size());
  oracle::buffer("out", out.data(), out.capacity());
  oracle::buffer("seen", seen.data(), seen.capacity());
  oracle::buffer("table", table.data(), table.size());
  oracle::buffer("work", work.data(), work.capacity());
  oracle::buffer("spare", spare.data(), spare.capacity());
  oracle::buffer("weights", weights.data(), weights.capacity());
  oracle::run(gather, 3, std::cref(in), std::ref(out), std::ref(seen));
  oracle::run(reshape, 2, std::ref(work), std::cref(table), std::ref(weights),
              std::ref(spare));
  for (const std::vector<double> *V : {&out, &work, &spare})
    for (double X : *V)
      std::printf("%g ", X);
  for (int X : seen)
    std::printf("%d ", X);
  for (float X : weights)
    std::printf("%g ", X);
  std::printf("\n");
  return oracle::finish();
}
