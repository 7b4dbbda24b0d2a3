//===- damage_corpus.cc - How much damage the decoder takes for data ------===//
//
// Usage: wgtrace-damage-corpus [--check] [--seed N] [--samples N] TRACE...
//
// Damages copies of real traces in every way a file gets damaged (zeroed
// and random pages, 64 KiB of zeros, single-bit flips in each field of each
// record kind, of chunk headers, ring trailers, lost sites, checksums, head
// words, run records and metadata, and cuts at any length), decodes each copy
// with the viewer's reader, and compares what it delivered with what the
// undamaged file holds. A record delivered that the program did not write (a
// different record at its offset, or one at an offset where none was) is
// "accepted as data"; the decoder's job is to report damage instead (one error
// line). The ring chunks' checksums let it tell every change to a ring chunk;
// the metadata is the one class the format cannot check in full
// (docs/FORMAT.md, "Damage").
//
// Prints one row per class of damage: copies, copies reported as damaged,
// copies read exactly as the original (the damage hit bytes no reader
// uses), copies that delivered records the program did not write (and how
// many), copies that silently delivered fewer records, and copies whose
// census (loss, run) changed without an error. A copy of a trace of
// several ring chunks is also read on two threads (`summary`, whose
// reading then surveys the chunks, decodes them in shards and merges them,
// compressed chunks decompressed as they are decoded): the copies read on
// threads, and those whose report or error differs from one thread's.
// With --check, exits 1 when a class the format can detect (all but
// kUndetectable below) accepted any record or census that the program did
// not write, or when any copy read differently on threads.
//
//===----------------------------------------------------------------------===//

#include "analyses/SummaryTool.h"
#include "reader/TraceFile.h"
#include "reader/TraceReader.h"

#include "wgtrace/format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::viewer;

namespace {

/// What a record says, in full, with the WORKGROUP record (by file
/// offset) it belongs to: two records with the same text and owner are the
/// same data.
class Recorder : public AnalysisTool {
public:
  struct Seen {
    uint64_t FileOffset;
    std::string Text;
    /// The file offset of its WORKGROUP record (~0 for none).
    uint64_t Owner;
    format::Tag Tag;
    uint32_t PrintLength;
  };
  std::vector<Seen> Records;

  void beginRing(const RingInfo &Info) override { RingFile = Info.FileOffset; }
  void record(const Record &R) override {
    uint64_t Owner = R.Workgroup ? RingFile + R.Workgroup->Offset : ~0ull;
    std::string T;
    switch (R.Tag) {
    case format::Tag::Workgroup: {
      const format::WorkgroupRecord &W = R.Workgroup->Record;
      T = fmt::format("W {} {},{},{} {},{},{} {}", W.DispatchId, W.Id[0],
                      W.Id[1], W.Id[2], W.Count[0], W.Count[1], W.Count[2],
                      W.ProcessorId);
      break;
    }
    case format::Tag::MemoryLoad:
    case format::Tag::MemoryStore:
      T = fmt::format("{} {} {:x}", R.Memory.IsStore ? 'S' : 'L',
                      R.Memory.Length, R.AddressWord);
      break;
    case format::Tag::Value:
      T = fmt::format("V {} {} {:x}", unsigned(R.Value.Type),
                      unsigned(R.Value.Ordinal), R.Value.Bits);
      break;
    case format::Tag::Print:
      T = fmt::format("P {}", R.Text.str());
      break;
    default:
      T = "?";
    }
    uint32_t PrintLength = 0;
    if (R.Tag == format::Tag::Print)
      PrintLength = uint32_t(R.Text.size());
    Records.push_back({R.FileOffset, std::move(T), Owner, R.Tag, PrintLength});
  }

private:
  uint64_t RingFile = 0;
};

/// What the census says that a damaged copy could falsify: the loss and
/// the run.
std::string censusText(const TraceCensus &C) {
  std::string T = fmt::format("lost {} ", C.bytesLost());
  for (const RingLoss &L : C.Rings)
    T += fmt::format("[{} {} {} {}]", L.RingId, L.BytesLost,
                     L.RecordsLost.value_or(0), L.WorkgroupsLost.value_or(0));
  for (const SiteCensus &S : C.Sites)
    T += fmt::format(" s{}:{}/{}", S.Site, S.Workgroups, S.WorkgroupsLost);
  for (const RunInfo &R : C.Runs)
    T += fmt::format(" run {} {} {} {} {} {}", unsigned(R.End), R.ExitStatus,
                     R.Signal, R.Workgroups, R.MaxProcessorId,
                     R.UninstrumentedLaunches);
  return T;
}

struct Decoding {
  std::vector<Recorder::Seen> Records;
  bool Error = false;
  bool CutShort = false;
  std::string Census;
};

Decoding decode(const std::vector<uint8_t> &Bytes) {
  TraceFile File = TraceFile::fromBytes(Bytes);
  Recorder R;
  TraceReader Reader(File, RingMode::WrapAware);
  AnalysisTool *Tools[] = {&R};
  Decoding D;
  if (llvm::Error E = Reader.run(Tools)) {
    llvm::consumeError(std::move(E));
    D.Error = true;
  }
  D.Records = std::move(R.Records);
  D.CutShort = Reader.census().RunRecordMissing;
  D.Census = censusText(Reader.census());
  return D;
}

/// `summary --by workgroup` of \p Bytes on \p Threads threads and its
/// error; \p OnThreads: whether the reading was on threads.
std::string summaryOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                      bool &OnThreads) {
  TraceFile File = TraceFile::fromBytes(Bytes);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  SummaryTool Summary(OS, /*Json=*/false);
  TraceReader Reader(File, RingMode::WrapAware);
  Reader.setThreads(Threads);
  AnalysisTool *Tools[] = {&Summary};
  if (llvm::Error E = Reader.run(Tools))
    Text += "\nerror: " + llvm::toString(std::move(E));
  OnThreads = Reader.readOnThreads();
  return Text;
}

/// One class of damage and what its copies did.
struct Tally {
  uint64_t Copies = 0;
  uint64_t Detected = 0;
  uint64_t Exact = 0;
  uint64_t AcceptedCopies = 0;
  uint64_t AcceptedRecords = 0;
  uint64_t SilentlyShort = 0;
  uint64_t WrongCensus = 0;
  uint64_t OnThreads = 0;
  uint64_t ThreadsDiffer = 0;
};

/// Classes in which the format cannot catch every change: --check fails
/// if any other class accepted data the program did not write. Every byte
/// of a ring chunk wgtrace writes is under a block or tail checksum
/// (docs/FORMAT.md, "The ring trailer"), so a change to a record, a
/// trailer, a head or a run record is detected unless a 32-bit checksum
/// collides (2^-32 per damaged block: none in a corpus this size). The
/// metadata has no checksum: its names, sources and locations are strings
/// the schema cannot check.
const std::set<std::string> kUndetectable = {
    "metadata",
};

class Corpus {
public:
  Corpus(const std::vector<uint8_t> &Original, std::mt19937_64 &Random,
         unsigned Samples)
      : Original(Original), Random(Random), Samples(Samples),
        Reference(decode(Original)) {
    for (const Recorder::Seen &S : Reference.Records)
      ByOffset[S.FileOffset] = &S;
    bool Threaded = false;
    summaryOn(Original, 2, Threaded);
    ReadOnThreads = Threaded;
  }

  bool usable() const {
    return !Reference.Error && !Reference.CutShort &&
           !Reference.Records.empty();
  }

  void run(std::map<std::string, Tally> &Tallies) {
    pages(Tallies);
    // A compressed trace's records are inside zstd frames: their bytes are
    // not in the file (the frames are damaged in chunks()).
    if (!hasCompressedChunks())
      records(Tallies);
    chunks(Tallies);
    cuts(Tallies);
  }

private:
public:
  /// --verbose: every copy that was not reported as damaged but differs.
  bool Verbose = false;
  std::string Current;

private:
  bool hasCompressedChunks() const {
    TraceFile File = TraceFile::fromBytes(Original);
    TraceFile::ChunkIterator It = File.chunks();
    Chunk C;
    while (true) {
      llvm::Expected<bool> More = It.next(C);
      if (!More) {
        llvm::consumeError(More.takeError());
        return false;
      }
      if (!*More)
        return false;
      if (C.Where.Compressed)
        return true;
    }
  }

  /// Decodes \p Copy and counts it in \p Class. Its plain offsets from
  /// \p ShiftFrom on are the original's less \p Shift (a compressed chunk
  /// read as plain bytes of the chunk before it).
  void judge(Tally &T, const std::vector<uint8_t> &Copy,
             uint64_t ShiftFrom = ~uint64_t{0}, uint64_t Shift = 0) {
    ++T.Copies;
    Decoding D = decode(Copy);
    uint64_t Wrong = 0;
    std::string FirstWrong;
    auto Original = [&](uint64_t Offset) {
      return Offset != ~uint64_t{0} && Offset >= ShiftFrom ? Offset + Shift
                                                           : Offset;
    };
    for (const Recorder::Seen &S : D.Records) {
      auto It = ByOffset.find(Original(S.FileOffset));
      if (It == ByOffset.end() || It->second->Text != S.Text ||
          It->second->Owner != Original(S.Owner)) {
        if (!Wrong++)
          FirstWrong = fmt::format(
              "at {:#x} '{}' of {:#x} instead of '{}'", S.FileOffset, S.Text,
              S.Owner,
              It == ByOffset.end() ? "(none)" : It->second->Text.c_str());
      }
    }
    bool Detected = D.Error || D.CutShort;
    T.Detected += Detected;
    T.AcceptedRecords += Wrong;
    T.AcceptedCopies += Wrong != 0;
    if (!Detected && D.Records.size() < Reference.Records.size())
      ++T.SilentlyShort;
    if (!Detected && !Wrong && D.Census != Reference.Census)
      ++T.WrongCensus;
    bool Exact = !Detected && !Wrong &&
                 D.Records.size() == Reference.Records.size() &&
                 D.Census == Reference.Census;
    T.Exact += Exact;
    if (ReadOnThreads) {
      bool OneOnThreads = false, TwoOnThreads = false;
      const std::string One = summaryOn(Copy, 1, OneOnThreads);
      const std::string Two = summaryOn(Copy, 2, TwoOnThreads);
      T.OnThreads += TwoOnThreads;
      if (One != Two) {
        ++T.ThreadsDiffer;
        std::printf("  %s: read differently on two threads\n--- one\n%s\n"
                    "--- two\n%s\n",
                    Current.c_str(), One.c_str(), Two.c_str());
      }
    }
    if (Verbose && ((!Detected && !Exact) || Wrong))
      std::printf("  %s: %s%llu wrong %s, %zu of %zu records, census %s\n",
                  Current.c_str(), Detected ? "reported, " : "",
                  (unsigned long long)Wrong, FirstWrong.c_str(),
                  D.Records.size(), Reference.Records.size(),
                  D.Census == Reference.Census ? "same" : D.Census.c_str());
  }

  std::vector<uint8_t> flipped(uint64_t Bit) {
    Current = fmt::format("bit {} (byte {:#x})", Bit, Bit / 8);
    std::vector<uint8_t> Copy = Original;
    Copy[Bit / 8] ^= uint8_t(1u << (Bit % 8));
    return Copy;
  }

  /// Each bit of [\p FirstBit, \p FirstBit + \p Bits) of the file.
  void flipEach(Tally &T, uint64_t FirstBit, uint64_t Bits) {
    for (uint64_t B = 0; B < Bits; ++B)
      if ((FirstBit + B) / 8 < Original.size())
        judge(T, flipped(FirstBit + B));
  }

  /// Up to Samples items of \p Items, chosen at random.
  template <class T> std::vector<T> sample(std::vector<T> Items) {
    std::shuffle(Items.begin(), Items.end(), Random);
    if (Items.size() > Samples)
      Items.resize(Samples);
    return Items;
  }

  void pages(std::map<std::string, Tally> &Tallies) {
    std::vector<uint64_t> Pages;
    for (uint64_t At = 0; At < Original.size(); At += 4096)
      Pages.push_back(At);
    for (uint64_t At : sample(Pages)) {
      std::vector<uint8_t> Copy = Original;
      std::fill(Copy.begin() + At,
                Copy.begin() + std::min<uint64_t>(At + 4096, Copy.size()), 0);
      judge(Tallies["zeroed 4 KiB page"], Copy);
      Copy = Original;
      for (uint64_t I = At; I < std::min<uint64_t>(At + 4096, Copy.size()); ++I)
        Copy[I] = uint8_t(Random());
      judge(Tallies["random 4 KiB page"], Copy);
      Copy = Original;
      std::fill(Copy.begin() + At,
                Copy.begin() + std::min<uint64_t>(At + 65536, Copy.size()), 0);
      judge(Tallies["zeroed 64 KiB"], Copy);
    }
  }

  void records(std::map<std::string, Tally> &Tallies) {
    std::map<int, std::vector<const Recorder::Seen *>> ByTag;
    for (const Recorder::Seen &S : Reference.Records)
      ByTag[int(S.Tag)].push_back(&S);
    struct Field {
      const char *Name;
      uint64_t FirstBit, Bits;
    };
    // Tables, not vectors assigned from braces: GCC 12 warns (-Wnonnull)
    // on the copy those assignments inline.
    static constexpr Field WorkgroupFields[] = {{"tag", 0, 8},
                                                {"dispatch id", 8, 24},
                                                {"id", 32, 96},
                                                {"count", 128, 96},
                                                {"processor id", 224, 32}};
    static constexpr Field MemoryFields[] = {{"tag", 0, 8},
                                             {"length", 8, 16},
                                             {"key", 24, 40},
                                             {"address", 64, 48},
                                             {"access site", 112, 16}};
    static constexpr Field ValueFields[] = {{"tag", 0, 8},
                                            {"type", 8, 8},
                                            {"ordinal", 16, 8},
                                            {"key", 24, 40},
                                            {"bits", 64, 64}};
    for (auto &[Tag, List] : ByTag) {
      for (const Recorder::Seen *S : sample(List)) {
        uint64_t At = S->FileOffset * 8;
        const uint64_t Text = S->PrintLength;
        const uint64_t Size = format::printRecordSize(uint32_t(Text));
        const Field PrintFields[] = {
            {"tag", 0, 8},
            {"length", 8, 16},
            {"key", 24, 40},
            {"text", 64, Text * 8},
            {"padding", 64 + Text * 8, Size * 8 - 64 - Text * 8}};
        llvm::ArrayRef<Field> Fields;
        std::string Kind;
        switch (format::Tag(Tag)) {
        case format::Tag::Workgroup:
          Kind = "WORKGROUP";
          Fields = WorkgroupFields;
          break;
        case format::Tag::MemoryLoad:
        case format::Tag::MemoryStore:
          Kind = "LOAD/STORE";
          Fields = MemoryFields;
          break;
        case format::Tag::Value:
          Kind = "VALUE";
          Fields = ValueFields;
          break;
        case format::Tag::Print:
          Kind = "PRINT";
          Fields = PrintFields;
          break;
        default:
          continue;
        }
        for (const Field &F : Fields)
          flipEach(Tallies[Kind + " " + F.Name], At + F.FirstBit, F.Bits);
      }
    }
  }

  void chunks(std::map<std::string, Tally> &Tallies) {
    TraceFile File = TraceFile::fromBytes(Original);
    TraceFile::ChunkIterator It = File.chunks();
    Chunk C;
    std::vector<uint64_t> MetadataBytes;
    while (true) {
      llvm::Expected<bool> More = It.next(C);
      if (!More) {
        llvm::consumeError(More.takeError());
        break;
      }
      if (!*More)
        break;
      // File offsets: a compressed chunk's, not its plain one's.
      uint64_t Header = C.Where.FileOffset * 8;
      const uint64_t ContentAt = C.Where.FileOffset + format::kChunkHeaderSize;
      flipEach(Tallies["chunk header magic"], Header, 32);
      flipEach(Tallies["chunk header type"], Header + 32, 16);
      flipEach(Tallies["chunk header version"], Header + 48, 16);
      flipEach(Tallies["chunk header content length"], Header + 64, 64);
      swallowNext(Tallies["content length swallowing the next chunk"],
                  C.Where.FileOffset, C.Where.PlainOffset);
      if (C.Where.Compressed) {
        // Its header, every bit; its frame, bits at random (not in the
        // last 16 bytes, which may be the chunk's padding).
        flipEach(Tallies["compressed chunk header"], ContentAt * 8,
                 sizeof(format::CompressedChunkHeader) * 8);
        const uint64_t Frame =
            ContentAt + sizeof(format::CompressedChunkHeader);
        std::vector<uint64_t> FrameBits;
        for (uint64_t B = Frame * 8;
             B < (C.Where.FileOffset + C.FileLength - 16) * 8 &&
             B / 8 < Original.size();
             B += 7)
          FrameBits.push_back(B);
        for (uint64_t Bit : sample(FrameBits))
          judge(Tallies["compressed frame"], flipped(Bit));
        continue;
      }
      if (C.type() == format::ChunkType::DispatchMetadata) {
        for (uint64_t I = 0; I < C.Content.size(); ++I)
          MetadataBytes.push_back(ContentAt + I);
        continue;
      }
      if (C.type() != format::ChunkType::DispatchRingBuffer)
        continue;
      uint64_t End = ContentAt + C.Content.size();
      flipEach(Tallies["ring head word"], (End - 8) * 8, 64);
      uint64_t R = C.Content.size() - format::kRingPadding;
      uint64_t Trailer = ContentAt + format::ringTrailerOffset(R);
      bool RunRecord = false;
      format::RingTrailer T;
      std::memcpy(&T, Original.data() + Trailer, sizeof(T));
      if (T.Magic == format::kRingTrailerMagic) {
        RunRecord = T.Flags & format::kTrailerRunRecord;
        flipEach(Tallies["ring trailer magic and version"], Trailer * 8, 48);
        flipEach(Tallies[RunRecord ? "run record trailer" : "ring trailer"],
                 (Trailer + 6) * 8, (sizeof(T) - 6) * 8);
        const uint64_t SitesEnd =
            ContentAt + format::lostSitesEnd(R, T.Version);
        flipEach(Tallies["ring lost sites"],
                 (SitesEnd - T.LostSiteCount * sizeof(format::LostSite)) * 8,
                 T.LostSiteCount * sizeof(format::LostSite) * 8);
        if (T.Version == format::kRingTrailerVersion) {
          const uint64_t Table = ContentAt + format::checksumTableOffset(R);
          flipEach(Tallies["ring checksums"], Table * 8, (Trailer - Table) * 8);
        }
      }
      if (RunRecord) {
        flipEach(Tallies["run record magic and version"], ContentAt * 8, 48);
        flipEach(Tallies["run record"], (ContentAt + 6) * 8,
                 (sizeof(format::RunRecord) - 6) * 8);
      }
    }
    // Metadata: a FlatBuffer; single-bit flips at random places.
    for (uint64_t Byte : sample(MetadataBytes))
      judge(Tallies["metadata"], flipped(Byte * 8 + Random() % 8));
  }

  /// The chunk at \p At (plain offset \p PlainAt) with a content_length
  /// that takes in the chunk after it whole, so that the chunk after that
  /// is read next: no bit flip does this unless the sizes happen to line
  /// up, which depends on what a run wrote (its addresses compress
  /// differently each run).
  void swallowNext(Tally &T, uint64_t At, uint64_t PlainAt) {
    format::ChunkHeader H, Next;
    std::memcpy(&H, Original.data() + At, sizeof(H));
    const uint64_t NextAt = format::nextChunkOffset(At, H.ContentLength);
    if (NextAt + sizeof(Next) > Original.size())
      return;
    std::memcpy(&Next, Original.data() + NextAt, sizeof(Next));
    const uint64_t AfterNext =
        format::nextChunkOffset(NextAt, Next.ContentLength);
    if (AfterNext >= Original.size())
      return;
    Current =
        fmt::format("chunk at {:#x} swallowing the one at {:#x}", At, NextAt);
    std::vector<uint8_t> Copy = Original;
    H.ContentLength += AfterNext - NextAt;
    std::memcpy(Copy.data() + At, &H, sizeof(H));
    // A compressed chunk swallowed counts as its file bytes, not as the
    // chunk it holds: the chunks after it take the plain offsets of the
    // copy's own layout (those its decompressed copy has), shorter by the
    // difference. Their records are judged at the original's offsets.
    uint64_t Shift = 0;
    format::CompressedChunkHeader Inner;
    if (Next.Type == uint16_t(format::ChunkType::Compressed) &&
        NextAt + format::kChunkHeaderSize + sizeof(Inner) <= Original.size()) {
      std::memcpy(&Inner, Original.data() + NextAt + format::kChunkHeaderSize,
                  sizeof(Inner));
      Shift = format::nextChunkOffset(NextAt, Inner.InnerLength) - AfterNext;
    }
    judge(T, Copy, PlainAt + (AfterNext - At), Shift);
  }

  void cuts(std::map<std::string, Tally> &Tallies) {
    std::vector<uint64_t> Lengths;
    for (uint64_t L = 16; L < Original.size(); L += 16)
      Lengths.push_back(L);
    for (uint64_t L : sample(Lengths)) {
      std::vector<uint8_t> Copy(Original.begin(), Original.begin() + L);
      judge(Tallies["cut short"], Copy);
    }
  }

  const std::vector<uint8_t> &Original;
  std::mt19937_64 &Random;
  unsigned Samples;
  Decoding Reference;
  std::map<uint64_t, const Recorder::Seen *> ByOffset;
  /// The undamaged file is read on threads: so are its copies, twice.
  bool ReadOnThreads = false;
};

} // namespace

int main(int argc, char **argv) {
  bool Check = false;
  bool Verbose = false;
  uint64_t Seed = 1;
  unsigned Samples = 20;
  std::vector<std::string> Paths;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "--check")
      Check = true;
    else if (A == "--seed" && I + 1 < argc)
      Seed = std::stoull(argv[++I]);
    else if (A == "--verbose")
      Verbose = true;
    else if (A == "--samples" && I + 1 < argc)
      Samples = unsigned(std::stoul(argv[++I]));
    else
      Paths.push_back(A);
  }
  if (Paths.empty()) {
    std::fprintf(stderr,
                 "usage: %s [--check] [--seed N] [--samples N] "
                 "TRACE...\n",
                 argv[0]);
    return 2;
  }
  std::mt19937_64 Random(Seed);
  std::map<std::string, Tally> Tallies;
  for (const std::string &Path : Paths) {
    std::ifstream In(Path, std::ios::binary);
    std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(In)),
                               std::istreambuf_iterator<char>());
    Corpus C(Bytes, Random, Samples);
    C.Verbose = Verbose;
    if (!C.usable()) {
      std::fprintf(stderr, "%s: not a complete, undamaged trace\n",
                   Path.c_str());
      return 2;
    }
    C.run(Tallies);
  }
  std::printf("%-34s %8s %9s %7s %9s %8s %7s %7s %8s %7s\n", "damage", "copies",
              "reported", "exact", "accepted", "records", "short", "census",
              "threads", "differ");
  bool Failed = false;
  for (const auto &[Name, T] : Tallies) {
    bool Detectable = !kUndetectable.count(Name);
    std::printf(
        "%-34s %8llu %9llu %7llu %9llu %8llu %7llu %7llu %8llu %7llu%s\n",
        Name.c_str(), (unsigned long long)T.Copies,
        (unsigned long long)T.Detected, (unsigned long long)T.Exact,
        (unsigned long long)T.AcceptedCopies,
        (unsigned long long)T.AcceptedRecords,
        (unsigned long long)T.SilentlyShort, (unsigned long long)T.WrongCensus,
        (unsigned long long)T.OnThreads, (unsigned long long)T.ThreadsDiffer,
        Detectable ? "" : "  (not detectable in general)");
    if (Detectable && (T.AcceptedRecords || T.SilentlyShort || T.WrongCensus))
      Failed = true;
    if (T.ThreadsDiffer)
      Failed = true;
  }
  if (Check && Failed) {
    std::printf("FAIL: a class of damage the format detects was accepted as "
                "data, or a copy read differently on threads\n");
    return 1;
  }
  return 0;
}
