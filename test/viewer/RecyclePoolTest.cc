//===- RecyclePoolTest.cc - Emptied containers kept for reuse -------------===//
//
// summary's invocations take their line sets from a LineSetPool and give
// them back when they end: a set must come back empty (an invocation's
// line count is its set's size) and keep the buckets it grew (the point of
// the pool: no new memory per invocation). cache's chunks and races'
// launches do the same with vectors (RecyclePool): emptied, their capacity
// kept.
//
//===----------------------------------------------------------------------===//

#include "analyses/RecyclePool.h"
#include "analyses/LineSetPool.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace wgtrace::viewer;

namespace {

TEST(LineSetPool, GivesBackEmptiedSetsWithTheirBuckets) {
  LineSetPool Pool;
  EXPECT_TRUE(Pool.take().empty());
  llvm::DenseSet<uint64_t> Set = Pool.take();
  for (uint64_t L = 0; L < 2112; ++L)
    Set.insert(L);
  const size_t Grown = Set.getMemorySize();
  Pool.give(std::move(Set));
  llvm::DenseSet<uint64_t> Again = Pool.take();
  EXPECT_TRUE(Again.empty());
  EXPECT_FALSE(Again.contains(5));
  EXPECT_EQ(Again.getMemorySize(), Grown);
  // The pool is empty again: the next set is a new one.
  EXPECT_EQ(Pool.take().getMemorySize(),
            llvm::DenseSet<uint64_t>().getMemorySize());
}

TEST(RecyclePool, GivesBackEmptiedVectorsWithTheirCapacity) {
  RecyclePool<std::vector<uint64_t>> Pool;
  std::vector<uint64_t> V = Pool.take();
  V.assign(5000, 7);
  const size_t Capacity = V.capacity();
  const uint64_t *Storage = V.data();
  Pool.give(std::move(V));
  std::vector<uint64_t> Again = Pool.take();
  EXPECT_TRUE(Again.empty());
  EXPECT_EQ(Again.capacity(), Capacity);
  // The very storage: no page of it is new.
  EXPECT_EQ(Again.data(), Storage);
  EXPECT_EQ(Pool.take().capacity(), 0u);
}

TEST(LineSetPool, SharedByThreads) {
  // A tool and its shards on other threads take and give at once.
  LineSetPool Pool;
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&Pool, T] {
      for (int I = 0; I < 1000; ++I) {
        llvm::DenseSet<uint64_t> Set = Pool.take();
        ASSERT_TRUE(Set.empty());
        for (uint64_t L = 0; L < 100; ++L)
          Set.insert(L * 4 + T);
        ASSERT_EQ(Set.size(), 100u);
        Pool.give(std::move(Set));
      }
    });
  for (std::thread &T : Threads)
    T.join();
  for (int T = 0; T < 4; ++T)
    EXPECT_TRUE(Pool.take().empty());
}

} // namespace
