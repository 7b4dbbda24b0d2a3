//===- IreeConvertTool.h - A file IREE's dump tool reads exactly -*- C++
//-*-===//
//
// `wgtrace-view convert --iree IN -o OUT` writes what IREE's
// iree-dump-instruments reads and prints correctly, record for record:
//
// * metadata: IREE's tables only (functions' name, target, layout, source;
//   sites' function), without wgtrace's WgtraceDef;
// * ring chunks: the records the decoder trusts, from offset 0, never
//   wrapped (IREE reads [0, min(head, R)) and would print overwritten laps
//   of a wrapped ring), in the smallest power-of-two ring (at least 4 KiB)
//   that holds them, keys rewritten to the new offsets; address words
//   without access-site bits (IREE prints the whole word); wgtrace's own
//   VALUE types (buffers, continuations) left out, and a copy of a
//   WORKGROUP record left out when its invocation began in the same
//   chunk (its records are keyed to the first record); zero padding (no
//   ring trailer);
// * timing chunks left out: IREE's tool stops at the first chunk type it
//   does not know.
//
// What IREE cannot show is therefore not in OUT: access sites, buffer
// names, loss counts, times. Memory: one ring chunk's records at a time.
//
// On several threads (newShard()) a shard converts one ring chunk into an
// output chunk of its own, kept until mergeShard() writes it, the chunks
// in file order (metadata chunks between them as the reader meets them):
// OUT is the one-thread OUT byte for byte, and memory is the chunks
// decoded ahead of the merge (TraceReader: at most twice the threads),
// whatever the file. Everything a ring's conversion keys (offsets,
// invocations begun) lies within its chunk, so a chunk converts alone.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_IREECONVERTTOOL_H
#define WGTRACE_VIEWER_IREECONVERTTOOL_H

#include "analyses/AnalysisTool.h"
#include "analyses/RecyclePool.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

namespace wgtrace::viewer {

class IreeConvertTool : public AnalysisTool {
public:
  explicit IreeConvertTool(llvm::raw_ostream &OS) : OS(OS) {}

  void metadata(const Metadata &M, const ChunkLocation &Where) override;
  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  /// Every record the file holds, those of unselected workgroups too.
  bool wantsUnselected() const override { return true; }
  void endRing(const RingInfo &Info) override;
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;

  /// Records written, and those left out (wgtrace's values and copies).
  uint64_t recordsWritten() const { return Written; }
  uint64_t recordsLeftOut() const { return LeftOut; }

private:
  void chunk(uint16_t Type, llvm::ArrayRef<uint8_t> Content);
  uint8_t *reserve(uint64_t Bytes);

  llvm::raw_ostream &OS;
  /// The ring chunk's content being made; a shard's, whole, after
  /// endRing().
  std::vector<uint8_t> Ring;
  /// A shard writes nothing: its chunk waits in Ring for the merge. Rings
  /// written go back to the pool, shared by the tool and its shards, so
  /// that the next shard's fills pages faulted in already.
  bool IsShard = false;
  std::shared_ptr<RecyclePool<std::vector<uint8_t>>> RingPool =
      std::make_shared<RecyclePool<std::vector<uint8_t>>>();
  /// Input ring offset of a WORKGROUP record -> output offset its records
  /// are keyed to; invocation -> output offset of its first record here.
  llvm::DenseMap<uint64_t, uint64_t> KeyOf;
  llvm::DenseMap<uint64_t, uint64_t> FirstOf;
  uint64_t Written = 0, LeftOut = 0;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_IREECONVERTTOOL_H
