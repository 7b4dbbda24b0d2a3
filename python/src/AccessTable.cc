//===- AccessTable.cc -----------------------------------------------------===//

#include "AccessTable.h"

#include "reader/BufferResolver.h"
#include "reader/Record.h"

#include <algorithm>
#include <cstring>
#include <optional>

using namespace llvm;
using namespace wgtrace::viewer;

namespace wgtrace::python {

bool AccessTable::readMetadata() {
  // Headers, and the metadata chunks' contents (small); damage ends the
  // walk where it ended open()'s pass, after every chunk a ring refers to.
  TraceFile::ChunkIterator It = File.chunks();
  Chunk C;
  while (true) {
    Expected<bool> More = It.next(C);
    if (!More) {
      consumeError(More.takeError());
      return true;
    }
    if (!*More)
      return true;
    if (C.type() != format::ChunkType::DispatchMetadata)
      continue;
    Expected<viewer::Metadata> M = viewer::Metadata::decode(C);
    if (!M) {
      consumeError(M.takeError());
      return true;
    }
    Metadata.push_back(std::move(*M));
    MetadataByChunk[C.Where.Index] = &Metadata.back();
  }
}

bool AccessTable::fill() {
  if (!readMetadata())
    return false;
  for (uint32_t I = 0; I < Tables.Buffers.size(); ++I) {
    const BufferEntry &B = Tables.Buffers[I];
    if (B.File == FileIndex)
      FileBuffers.try_emplace({Tables.KernelNames[B.Kernel], B.Ordinal, B.Base,
                               B.Extent.value_or(UINT64_MAX)},
                              int32_t(I));
  }
  const ArrayRef<uint8_t> Bytes = File.bytes();
  BufferResolver Buffers;
  uint32_t CurrentRing = UINT32_MAX;
  bool Resolving = false;
  AccessRow Template{};
  WorkgroupInfo Owner;
  Record R;
  R.Workgroup = &Owner;

  // The ring chunk being read: its storage is in the mapping, or, for a
  // compressed chunk, in memory of its own (RingEntry::FileOffset is a
  // plain offset, ChunkLocation). Runs come in file order: one walk.
  std::optional<TraceFile::ChunkIterator> Walk;
  Chunk Current;
  bool HaveCurrent = false;
  auto Locate = [&](uint32_t Index) -> std::optional<ArrayRef<uint8_t>> {
    if (!Walk || (HaveCurrent && Current.Where.Index > Index)) {
      Walk.emplace(File.chunks());
      HaveCurrent = false;
    }
    while (!HaveCurrent || Current.Where.Index < Index) {
      Expected<bool> More = Walk->next(Current);
      consumeError(Walk->takeSkipped());
      if (!More) {
        consumeError(More.takeError());
        const Chunk *Cut = Walk->cutChunk();
        if (!Cut || Cut->Where.Index != Index)
          return std::nullopt;
        Current = *Cut;
      } else if (!*More) {
        return std::nullopt;
      }
      HaveCurrent = true;
    }
    if (Current.Where.Index != Index)
      return std::nullopt;
    if (Current.Where.Compressed)
      return Current.Content;
    // A record may reach into the chunk's padding, not past the file (a
    // cut chunk's storage ends there).
    return Bytes.drop_front(Current.Where.FileOffset +
                            format::kChunkHeaderSize);
  };
  ArrayRef<uint8_t> RingBytes;

  for (const RunEntry &Run : Tables.Runs) {
    const WorkgroupEntry &G = Tables.Workgroups[Run.Workgroup];
    if (G.File != FileIndex || !Wanted[Run.Workgroup])
      continue;
    const RingEntry &Ring = Tables.Rings[Run.Ring];
    const viewer::Metadata *Meta = nullptr;
    if (Ring.MetadataChunk) {
      auto It = MetadataByChunk.find(*Ring.MetadataChunk);
      if (It == MetadataByChunk.end())
        return false;
      Meta = It->second;
    }
    if (Run.Ring != CurrentRing) {
      // As the reader does at every ring chunk.
      CurrentRing = Run.Ring;
      Buffers.beginRing(Meta);
      Resolving = Buffers.active();
      std::optional<ArrayRef<uint8_t>> Located = Locate(Ring.Chunk);
      if (!Located)
        return false;
      RingBytes = *Located;
    }
    if (!Ring.Size || (Ring.Size & (Ring.Size - 1)))
      return false;
    const uint8_t *Storage = RingBytes.data();
    const uint64_t Room = RingBytes.size();
    const uint64_t Mask = Ring.Size - 1;

    Template.Workgroup = Run.Workgroup;
    Template.Site = G.Site;
    Template.Launch = G.Launch;
    Template.WgX = G.Id[0];
    Template.WgY = G.Id[1];
    Template.WgZ = G.Id[2];
    Template.Processor = G.Processor;
    // Any number that is this invocation's alone will do for the resolver.
    Owner.Invocation = Run.Workgroup;
    Owner.Record.DispatchId = G.Site;
    if (Meta && G.Site >= Meta->SiteFunctions.size())
      return false;

    // The atomic mark still to be matched (RingDecoder::decode): its
    // records follow it at once, in the same run.
    unsigned AtomicPending = 0;
    uint64_t AtomicKey = 0;
    // The same for a Critical VALUE (1: its next LOAD or STORE; 2: a LOAD
    // and a STORE), and the sections the workgroup entered in this run and
    // did not leave (a copy of its record enters them again).
    unsigned CriticalPending = 0;
    uint64_t CriticalKey = 0;
    std::vector<uint64_t> OpenSections;
    uint64_t Phys = Run.Offset & Mask;
    for (uint64_t N = 0; N < Run.Records; ++N) {
      const uint8_t *P = Storage + Phys;
      // The record's first 16 bytes, then all of it, inside the file.
      if (Phys + 16 > Room)
        return false;
      const uint64_t Length = format::recordSize(P);
      if (Length == 0 || Phys + Length > Room)
        return false;
      const auto Tag = static_cast<format::Tag>(format::recordTag(P));
      bool Atomic = false;
      if (AtomicPending) {
        const bool Load = AtomicPending & unsigned(format::AtomicOp::Load);
        uint64_t Word;
        std::memcpy(&Word, P, sizeof(Word));
        if (Tag ==
                (Load ? format::Tag::MemoryLoad : format::Tag::MemoryStore) &&
            format::wordWorkgroupOffset(Word) == AtomicKey) {
          Atomic = true;
          AtomicPending =
              Load ? AtomicPending & ~unsigned(format::AtomicOp::Load) : 0;
        } else {
          AtomicPending = 0;
        }
      }
      bool Critical = false;
      if (CriticalPending && Tag != format::Tag::Value) {
        uint64_t Word;
        std::memcpy(&Word, P, sizeof(Word));
        const bool Either = CriticalPending == 1;
        const bool Expected = Either ? Tag == format::Tag::MemoryLoad ||
                                           Tag == format::Tag::MemoryStore
                              : CriticalPending == 2
                                  ? Tag == format::Tag::MemoryLoad
                                  : Tag == format::Tag::MemoryStore;
        Critical = Expected && format::wordWorkgroupOffset(Word) == CriticalKey;
        CriticalPending = Critical && CriticalPending == 2 ? 3 : 0;
      }
      if (Tag == format::Tag::Value) {
        R.Tag = Tag;
        R.Value = format::decodeValue(P);
        CriticalPending = 0;
        if (R.Value.Type == format::ValueType::Critical &&
            (R.Value.Ordinal == 1 || R.Value.Ordinal == 2)) {
          CriticalPending = R.Value.Ordinal;
          CriticalKey = R.Value.WorkgroupOffset;
        } else if (R.Value.Type == format::ValueType::CriticalSection &&
                   R.Value.Ordinal == 1) {
          OpenSections.push_back(R.Value.Bits);
        } else if (R.Value.Type == format::ValueType::CriticalSection &&
                   R.Value.Ordinal == 0) {
          auto Entered = std::find(OpenSections.rbegin(), OpenSections.rend(),
                                   R.Value.Bits);
          if (Entered != OpenSections.rend())
            OpenSections.erase(std::next(Entered).base());
        }
        if (R.Value.Type == format::ValueType::Atomic &&
            R.Value.Bits <= uint64_t(format::AtomicOp::Update) &&
            R.Value.Ordinal ==
                format::atomicRecords(format::AtomicOp(R.Value.Bits))) {
          AtomicPending = unsigned(R.Value.Bits);
          AtomicKey = R.Value.WorkgroupOffset;
        }
        if (Resolving)
          Buffers.value(R);
      } else if (Tag == format::Tag::MemoryLoad ||
                 Tag == format::Tag::MemoryStore) {
        if (Size == Capacity)
          return false;
        R.Tag = Tag;
        R.Memory = format::decodeMemory(P);
        const uint64_t Word = R.Memory.Address;
        uint32_t Site = format::kNoAccessSite;
        if (Ring.AccessSiteBits) {
          if (Ring.TrustAccessSites)
            Site = format::accessSiteOfWord(Word);
          R.Memory.Address = format::addressOfWord(Word);
        }
        AccessRow &Row = Out[Size++];
        Row = Template;
        Row.Address = R.Memory.Address;
        Row.Length = uint16_t(R.Memory.Length);
        Row.AccessSite = uint16_t(Site);
        Row.Buffer = -1;
        if (Resolving) {
          const uint32_t Local = Buffers.resolve(R);
          if (Local != kNoBuffer) {
            // Buffers the resolver interned since: the file's entries with
            // the same key (BufferResolver::intern's), open()'s census.
            while (BufferIds.size() < Buffers.buffers().size()) {
              const BufferInfo &B = Buffers.buffers()[BufferIds.size()];
              auto It = FileBuffers.find({B.Function, B.Ordinal, B.Base,
                                          B.Extent.value_or(UINT64_MAX)});
              BufferIds.push_back(It == FileBuffers.end() ? -1 : It->second);
            }
            Row.Buffer = Local < BufferIds.size() ? BufferIds[Local] : -1;
          }
        }
        Row.Kind = R.Memory.IsStore ? 1 : 0;
        Row.Atomic = Atomic ? 1 : 0;
        Row.Critical = Critical || (!Atomic && !OpenSections.empty()) ? 1 : 0;
      }
      Phys = (Phys + Length) & Mask;
    }
  }
  return true;
}

} // namespace wgtrace::python
