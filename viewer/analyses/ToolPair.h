//===- ToolPair.h - Two tools fed as one ------------------------*- C++ -*-===//
//
// The reader calls every tool through the AnalysisTool interface, one
// virtual call per record and tool. Two tools that always read the same
// file together (diff: races and profile) can be handed to it as one: the
// pair forwards each call to the first tool and then to the second (the
// order in which the reader would call them), with calls that name the
// concrete classes, so that a record costs one virtual call, not two.
//
// Only for tools that read the file once: a pair never asks for another
// pass. On several threads its shard is the pair of its tools' shards (it
// has none unless both have), merged as each would be.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_TOOLPAIR_H
#define WGTRACE_VIEWER_TOOLPAIR_H

#include "analyses/AnalysisTool.h"

#include <memory>

namespace wgtrace::viewer {

template <class First, class Second>
class ToolPair final : public AnalysisTool {
public:
  ToolPair(First &A, Second &B) : A(A), B(B) {}

  void metadata(const Metadata &M, const ChunkLocation &Where) override {
    A.First::metadata(M, Where);
    B.Second::metadata(M, Where);
  }
  void beginRing(const RingInfo &Info) override {
    A.First::beginRing(Info);
    B.Second::beginRing(Info);
  }
  void record(const Record &R) override {
    A.First::record(R);
    B.Second::record(R);
  }
  void endRing(const RingInfo &Info) override {
    A.First::endRing(Info);
    B.Second::endRing(Info);
  }
  void endWorkgroups(llvm::ArrayRef<uint64_t> Invocations) override {
    A.First::endWorkgroups(Invocations);
    B.Second::endWorkgroups(Invocations);
  }
  bool wantsTiming() const override {
    return A.First::wantsTiming() || B.Second::wantsTiming();
  }
  void timing(llvm::ArrayRef<WorkgroupTime> Times) override {
    A.First::timing(Times);
    B.Second::timing(Times);
  }
  void census(const TraceCensus &C) override {
    A.First::census(C);
    B.Second::census(C);
  }
  void finish() override {
    A.First::finish();
    B.Second::finish();
  }
  std::unique_ptr<AnalysisTool> newShard() const override {
    std::unique_ptr<AnalysisTool> ShardA = A.First::newShard();
    std::unique_ptr<AnalysisTool> ShardB = B.Second::newShard();
    if (!ShardA || !ShardB)
      return nullptr;
    return std::unique_ptr<AnalysisTool>(
        new ToolPair(std::move(ShardA), std::move(ShardB)));
  }
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override {
    ToolPair &From = static_cast<ToolPair &>(Shard);
    A.First::mergeShard(From.A, Place);
    B.Second::mergeShard(From.B, Place);
  }

private:
  /// A pair of shards, which it owns.
  ToolPair(std::unique_ptr<AnalysisTool> ShardA,
           std::unique_ptr<AnalysisTool> ShardB)
      : A(static_cast<First &>(*ShardA)), B(static_cast<Second &>(*ShardB)),
        OwnA(std::move(ShardA)), OwnB(std::move(ShardB)) {}

  First &A;
  Second &B;
  std::unique_ptr<AnalysisTool> OwnA, OwnB;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_TOOLPAIR_H
