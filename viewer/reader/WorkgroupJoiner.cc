//===- WorkgroupJoiner.cc -------------------------------------------------===//

#include "reader/WorkgroupJoiner.h"

#include <fmt/format.h>

#include <algorithm>

using namespace llvm;

namespace wgtrace::viewer {

namespace {
/// The ring a cut chunk is joined as until its first copy names its ring
/// (the run record's ring is 0xFFFFFFFF).
constexpr uint32_t kCutRingId = 0xFFFFFFFE;
} // namespace

std::string WorkgroupFilter::describe() const {
  std::string Text;
  if (Kernel)
    Text += fmt::format("--kernel '{}'", *Kernel);
  if (Dispatch)
    Text += fmt::format("{}--dispatch {}", Text.empty() ? "" : " ", *Dispatch);
  if (Id)
    Text += fmt::format("{}--workgroup {},{},{}", Text.empty() ? "" : " ",
                        (*Id)[0], (*Id)[1], (*Id)[2]);
  return Text;
}

WorkgroupJoiner::WorkgroupJoiner(const WorkgroupFilter &Filter)
    : Filter(Filter) {
  if (Filter.Kernel) {
    Expected<GlobPattern> G = GlobPattern::create(*Filter.Kernel);
    if (G)
      KernelGlob = std::move(*G);
    else
      consumeError(G.takeError()); // checked by the caller; matches nothing
  }
}

bool WorkgroupJoiner::selects(const format::WorkgroupRecord &R) const {
  if (Filter.Dispatch && R.DispatchId != *Filter.Dispatch)
    return false;
  if (Filter.Id && ((*Filter.Id)[0] != R.Id[0] || (*Filter.Id)[1] != R.Id[1] ||
                    (*Filter.Id)[2] != R.Id[2]))
    return false;
  if (Filter.Kernel) {
    StringRef Name = Meta->siteFunction(R.DispatchId).nameOr("(null)");
    if (!KernelGlob || !KernelGlob->match(Name))
      return false;
  }
  return true;
}

bool WorkgroupJoiner::endsNearFull(const RingInfo &Info) {
  // A stream-mode buffer is handed over when the next record no longer
  // fits: its head is then within one record of the end (records are at
  // most 4 KiB; in small buffers prints are cut to a quarter of it).
  return !Info.Wrapped &&
         Info.Head + std::min(format::kMaxRecordSize, Info.Size / 4) >
             Info.Size;
}

void WorkgroupJoiner::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
  Trailer = Info.Trailer;
  UnknownRing = false;
  ChunkHead = Info.Head;
  CutBegun.clear();
  Base.reset();
  if (Trailer)
    Base = Trailer->BaseVirtualOffset;
  if (Info.Cut && !Trailer) {
    // Its writer writes trailers (RingDecoder::createCut): join as one of
    // its rings, a ring of its own until its first copy says which.
    format::RingTrailer T = {};
    T.RingId = kCutRingId;
    Trailer = T;
    UnknownRing = true;
  }
  NearFull = endsNearFull(Info);
  ChunkInvocations.clear();
}

void WorkgroupJoiner::resolveCutRing(uint64_t FirstRecord) {
  UnknownRing = false;
  std::optional<uint32_t> Found;
  for (const auto &[Ring, Stack] : Stacks) {
    auto It = ByFirstRecord.find({Ring, FirstRecord});
    if (It == ByFirstRecord.end() ||
        std::find(Stack.begin(), Stack.end(), It->second) == Stack.end())
      continue;
    if (Found)
      return; // two rings could own it: a ring of its own, as begun
    Found = Ring;
  }
  // Called for chunks with a trailer only; checked so that it stays so.
  if (!Found || !Trailer)
    return;
  Trailer->RingId = *Found;
  // A stream-mode chunk starts where the ring's previous one ended.
  if (auto It = NextStreamBase.find(*Found); It != NextStreamBase.end())
    setCutBase(*Found, It->second);
}

void WorkgroupJoiner::noteFirstRecord(uint32_t Ring, const WorkgroupInfo &W) {
  if (Base)
    ByFirstRecord[{Ring, *Base + W.Offset}] = W.Invocation;
  else
    CutBegun.push_back({W.Offset, W.Invocation, W.Record});
}

void WorkgroupJoiner::setCutBase(uint32_t Ring, uint64_t NewBase) {
  Base = NewBase;
  for (const CutBegin &B : CutBegun)
    ByFirstRecord[{Ring, NewBase + B.Offset}] = B.Invocation;
  CutBegun.clear();
}

/// Whether \p Q and \p R are WORKGROUP records of the same workgroup of
/// the same launch site (a copy of a running invocation repeats its record).
static bool sameWorkgroupOfSite(const format::WorkgroupRecord &Q,
                                const format::WorkgroupRecord &R) {
  return Q.DispatchId == R.DispatchId && std::equal(Q.Id, Q.Id + 3, R.Id) &&
         std::equal(Q.Count, Q.Count + 3, R.Count);
}

void WorkgroupJoiner::inferCutBase(uint32_t Ring,
                                   const std::vector<uint64_t> &Stack,
                                   const WorkgroupInfo &W) {
  const format::WorkgroupRecord &R = W.Record;
  const CutBegin *Match = nullptr;
  for (const CutBegin &B : CutBegun) {
    const format::WorkgroupRecord &Q = B.Record;
    // A copy continues a running invocation, begun before it in the ring,
    // and repeats its WORKGROUP record.
    if (B.Offset >= W.Offset || B.Offset > W.ContinuationOf ||
        std::find(Stack.begin(), Stack.end(), B.Invocation) == Stack.end() ||
        Q.ProcessorId != R.ProcessorId || !sameWorkgroupOfSite(Q, R))
      continue;
    if (Match)
      return; // two could be it: neither is taken
    Match = &B;
  }
  if (Match)
    setCutBase(Ring, W.ContinuationOf - Match->Offset);
}

uint64_t WorkgroupJoiner::begin(WorkgroupInfo &W) {
  W.Invocation = Next++;
  Ended.push_back(false);
  ++SiteCounts[{Meta, W.Record.DispatchId}];
  if (W.Unselected && W.Selected) {
    ++SiteUnselected[{Meta, W.Record.DispatchId}];
    ++Unselected[W.UnselectedBy];
  }
  if (W.Selected)
    ++Selected;
  return W.Invocation;
}

void WorkgroupJoiner::end(uint64_t Invocation) {
  if (Ended[Invocation])
    return;
  Ended[Invocation] = true;
  EndedQueue.push_back(Invocation);
}

void WorkgroupJoiner::workgroup(WorkgroupInfo &W, bool FirstOfChunk) {
  W.Selected = !Filter.active() || selects(W.Record);
  W.Continues = false;
  W.BeginningLost = false;
  if (Trailer) {
    if (UnknownRing && W.HasContinuation)
      resolveCutRing(W.ContinuationOf);
    const uint32_t Ring = Trailer->RingId;
    std::vector<uint64_t> &Stack = Stacks[Ring];
    auto EndAll = [&] {
      for (uint64_t I : Stack)
        end(I);
      Stack.clear();
    };
    if (W.HasContinuation) {
      auto It = ByFirstRecord.find({Ring, W.ContinuationOf});
      if (It == ByFirstRecord.end() && !Base) {
        inferCutBase(Ring, Stack, W);
        It = ByFirstRecord.find({Ring, W.ContinuationOf});
      }
      if (It != ByFirstRecord.end()) {
        W.Invocation = It->second;
        W.Continues = true;
        Ended[W.Invocation] = false; // reopened if it was ended too early
        // Kernels it called and that have returned end here.
        auto At = std::find(Stack.begin(), Stack.end(), W.Invocation);
        if (At == Stack.end()) {
          EndAll();
          Stack.push_back(W.Invocation);
        } else {
          for (auto I = At + 1; I != Stack.end(); ++I)
            end(*I);
          Stack.erase(At + 1, Stack.end());
        }
      } else {
        // Its first records were overwritten: it begins here in the file.
        begin(W);
        W.BeginningLost = true;
        ByFirstRecord[{Ring, W.ContinuationOf}] = W.Invocation;
        EndAll();
        Stack.push_back(W.Invocation);
      }
    } else {
      begin(W);
      noteFirstRecord(Ring, W);
      // Only a kernel called directly can run inside another workgroup; a
      // wgtrace::dispatch launch starts on a thread that runs none.
      const bool Direct = W.Record.DispatchId < Meta->SiteDirect.size() &&
                          Meta->SiteDirect[W.Record.DispatchId];
      if (!Direct)
        EndAll();
      Stack.push_back(W.Invocation);
    }
    ChunkInvocations.push_back(W.Invocation);
    return;
  }

  auto P = PendingByProcessor.find(W.Record.ProcessorId);
  if (P != PendingByProcessor.end()) {
    const bool Same = FirstOfChunk && W.Offset == 0 &&
                      sameWorkgroupOfSite(P->second.Record, W.Record);
    const uint64_t Invocation = P->second.Invocation;
    PendingByProcessor.erase(P);
    if (Same) {
      W.Invocation = Invocation;
      W.Continues = true;
      Ended[Invocation] = false;
      ChunkInvocations.push_back(W.Invocation);
      return;
    }
    end(Invocation);
  }
  begin(W);
  ChunkInvocations.push_back(W.Invocation);
}

void WorkgroupJoiner::endChunk(const WorkgroupInfo *LastOwner) {
  std::sort(ChunkInvocations.begin(), ChunkInvocations.end());
  ChunkInvocations.erase(
      std::unique(ChunkInvocations.begin(), ChunkInvocations.end()),
      ChunkInvocations.end());
  if (Trailer) {
    std::vector<uint64_t> &Stack = Stacks[Trailer->RingId];
    if (Trailer->Flags & format::kTrailerStream)
      NextStreamBase[Trailer->RingId] = Trailer->BaseVirtualOffset + ChunkHead;
    if (!(Trailer->Flags & format::kTrailerStream)) {
      // A ring-mode ring is written as one chunk: nothing continues it.
      for (uint64_t I : Stack)
        end(I);
      Stack.clear();
    }
    for (uint64_t I : ChunkInvocations)
      if (std::find(Stack.begin(), Stack.end(), I) == Stack.end())
        end(I);
  } else {
    const bool Keep = NearFull && LastOwner;
    for (uint64_t I : ChunkInvocations)
      if (!Keep || I != LastOwner->Invocation)
        end(I);
    if (Keep) {
      auto [It, New] = PendingByProcessor.try_emplace(
          LastOwner->Record.ProcessorId,
          Pending{LastOwner->Invocation, LastOwner->Record});
      if (!New) {
        if (It->second.Invocation != LastOwner->Invocation)
          end(It->second.Invocation);
        It->second = Pending{LastOwner->Invocation, LastOwner->Record};
      }
    }
  }
  ChunkInvocations.clear();
}

void WorkgroupJoiner::addCounts(const WorkgroupJoiner &Shard) {
  Next += Shard.Next;
  Ended.resize(Next, true);
  Selected += Shard.Selected;
  for (const auto &[Key, Count] : Shard.SiteCounts)
    SiteCounts[Key] += Count;
  for (const auto &[Filter, Count] : Shard.Unselected)
    Unselected[Filter] += Count;
  for (const auto &[Key, Count] : Shard.SiteUnselected)
    SiteUnselected[Key] += Count;
}

void WorkgroupJoiner::endFile() {
  for (uint64_t I = 0; I < Next; ++I)
    end(I);
  Stacks.clear();
  PendingByProcessor.clear();
}

std::vector<uint64_t> WorkgroupJoiner::takeEnded() {
  std::vector<uint64_t> Out;
  Out.swap(EndedQueue);
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace wgtrace::viewer
