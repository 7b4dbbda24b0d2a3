//===- DumpTool.cc --------------------------------------------------------===//

#include "output/DumpTool.h"

#include "output/ValueText.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>

namespace wgtrace::viewer {

// Exactly the rule IREE's tool prints (80 columns).
static constexpr char kBanner[] =
    "//===---------------------------------------------------------------"
    "-------===//\n";

/// One line of a batch: a LOAD or STORE, or the next Length bytes of the
/// batch's Text (a line the decoding thread formatted).
struct DumpLine {
  uint64_t WorkgroupOffset;
  uint64_t Address;
  uint32_t Length;
  enum Kind : uint8_t { Load, Store, Text } What;
};

struct DumpTool::Batch {
  std::vector<DumpLine> Lines;
  std::string Text;
  /// The batch's text, written by format(): at most kMaxMemoryLine bytes
  /// per LOAD or STORE line, and Text.
  std::unique_ptr<char[]> Out;
  size_t OutCapacity = 0;
  size_t OutSize = 0;

  void format();
  bool writeTo(llvm::raw_ostream &OS) const {
    OS.write(Out.get(), OutSize);
    return true;
  }
  bool empty() const { return Lines.empty(); }
  void clear() {
    Lines.clear();
    Text.clear();
    OutSize = 0;
  }
};

DumpTool::DumpTool(llvm::raw_ostream &OS, DumpOptions Options)
    : OS(OS), Options(Options) {}

DumpTool::~DumpTool() = default;

void DumpTool::setThreads(unsigned Threads, size_t Lines) {
  Batches.setThreads(Threads);
  BatchLines = std::max<size_t>(1, Lines);
}

void DumpTool::metadata(const Metadata &M, const ChunkLocation &Where) {
  (void)Where;
  Meta = &M;
  auto It = std::back_inserter(Buffer);
  for (size_t I = 0; I < M.Functions.size(); ++I) {
    const FunctionInfo &F = M.Functions[I];
    fmt::format_to(It, "\n{}// export[{}]: {}\n{}", kBanner, I,
                   F.nameOr("(null)"), kBanner);
    if (F.Target)
      fmt::format_to(It, "//  target: {}\n", *F.Target);
    if (F.Layout)
      fmt::format_to(It, "//  layout: {}\n", *F.Layout);
    if (F.Source)
      fmt::format_to(It, "{}\n", *F.Source);
    fmt::format_to(It, "\n");
  }
  fmt::format_to(It, "{}", kBanner);
  for (size_t I = 0; I < M.SiteFunctions.size(); ++I) {
    fmt::format_to(It, "// dispatch site {}: {}", I,
                   M.siteFunction(I).nameOr("(null)"));
    // Names repeat (a kernel launched from several places, and its direct
    // calls): the place tells them apart.
    if (!Options.IreeCompat) {
      if (I < M.SiteDirect.size() && M.SiteDirect[I])
        fmt::format_to(It, " (direct calls)");
      else if (I < M.SiteLocations.size() && !M.SiteLocations[I].empty())
        fmt::format_to(It, " at {}", M.SiteLocations[I]);
    }
    fmt::format_to(It, "\n");
  }
  fmt::format_to(It, "{}\n", kBanner);
  if (Batches.active())
    keepText();
  flushIfFull();
}

void DumpTool::beginRing(const RingInfo &Info) { Meta = Info.Meta; }

bool DumpTool::selected(const Record &R) const {
  if (!Options.Dispatch && !Options.WorkgroupId)
    return true;
  if (!R.Workgroup)
    return false;
  const format::WorkgroupRecord &WG = R.Workgroup->Record;
  if (Options.Dispatch && WG.DispatchId != *Options.Dispatch)
    return false;
  if (Options.WorkgroupId && ((*Options.WorkgroupId)[0] != WG.Id[0] ||
                              (*Options.WorkgroupId)[1] != WG.Id[1] ||
                              (*Options.WorkgroupId)[2] != WG.Id[2]))
    return false;
  return true;
}

namespace {
/// Hand-written digits for the two lines that make up almost every dump
/// (LOAD and STORE): fmt's runtime format strings cost more than the
/// decoding itself, and the dump must write tens of millions of lines per
/// second.
char *hex16(char *P, uint64_t V) {
  static constexpr char Digits[] = "0123456789ABCDEF";
  for (int I = 15; I >= 0; --I) {
    P[I] = Digits[V & 0xF];
    V >>= 4;
  }
  return P + 16;
}
char *decimal(char *P, uint32_t V) {
  char Tmp[10];
  int N = 0;
  do {
    Tmp[N++] = char('0' + V % 10);
    V /= 10;
  } while (V);
  while (N)
    *P++ = Tmp[--N];
  return P;
}
char *text(char *P, const char *S, size_t N) {
  std::memcpy(P, S, N);
  return P + N;
}
/// "%016X | LOAD  %016X %u\n": at most 16 + 9 + 16 + 1 + 10 + 1 bytes.
constexpr size_t kMaxMemoryLine = 64;
char *memoryLine(char *P, uint64_t WorkgroupOffset, bool IsStore,
                 uint64_t Address, uint32_t Length) {
  P = hex16(P, WorkgroupOffset);
  P = text(P, IsStore ? " | STORE " : " | LOAD  ", 9);
  P = hex16(P, Address);
  *P++ = ' ';
  P = decimal(P, Length);
  *P++ = '\n';
  return P;
}
} // namespace

void DumpTool::record(const Record &R) {
  if (!selected(R))
    return;
  const bool Memory =
      R.Tag == format::Tag::MemoryLoad || R.Tag == format::Tag::MemoryStore;
  if (Batches.active() && Memory) {
    // IREE's tool prints the whole word, access site bits included.
    Batches.open().Lines.push_back(
        {R.WorkgroupOffset,
         Options.IreeCompat ? R.AddressWord : R.Memory.Address, R.Memory.Length,
         R.Memory.IsStore ? DumpLine::Store : DumpLine::Load});
    if (Batches.open().Lines.size() >= BatchLines)
      Batches.submit(OS);
    return;
  }
  auto It = std::back_inserter(Buffer);
  switch (R.Tag) {
  case format::Tag::Workgroup: {
    const format::WorkgroupRecord &WG = R.Workgroup->Record;
    // The decoder has checked the dispatch id against these sites.
    fmt::format_to(It,
                   "{:016X} | WORKGROUP dispatch({} {} {}x{}x{}) {},{},{} "
                   "pid:{}\n",
                   R.Offset, WG.DispatchId,
                   Meta->siteFunction(WG.DispatchId).nameOr("(null)"),
                   WG.Count[0], WG.Count[1], WG.Count[2], WG.Id[0], WG.Id[1],
                   WG.Id[2], WG.ProcessorId);
    break;
  }
  case format::Tag::Print:
    fmt::format_to(It, "{:016X} | PRINT {}\n", R.WorkgroupOffset, R.Text);
    break;
  case format::Tag::Value:
    fmt::format_to(It, "{:016X} | VALUE {:04} = ", R.WorkgroupOffset,
                   unsigned(R.Value.Ordinal));
    if (Options.IreeCompat || !describeOwnValue(R))
      formatValue(Buffer, uint8_t(R.Value.Type), R.Value.Bits,
                  Options.IreeCompat);
    Buffer.push_back('\n');
    break;
  case format::Tag::MemoryLoad:
  case format::Tag::MemoryStore: {
    const size_t Old = Buffer.size();
    Buffer.resize(Old + kMaxMemoryLine);
    // IREE's tool prints the whole word, access site bits included.
    char *P = memoryLine(
        Buffer.data() + Old, R.WorkgroupOffset, R.Memory.IsStore,
        Options.IreeCompat ? R.AddressWord : R.Memory.Address, R.Memory.Length);
    Buffer.resize(P - Buffer.data());
    break;
  }
  default:
    break;
  }
  if (Batches.active())
    keepText();
  flushIfFull();
}

void DumpTool::keepText() {
  if (!Buffer.size())
    return;
  Batch &B = Batches.open();
  B.Text.append(Buffer.data(), Buffer.size());
  // In pieces a line's length holds (a metadata chunk's source text).
  for (size_t Left = Buffer.size(); Left;) {
    const size_t Piece = std::min<size_t>(Left, UINT32_MAX);
    B.Lines.push_back({0, 0, uint32_t(Piece), DumpLine::Text});
    Left -= Piece;
  }
  Buffer.clear();
  if (B.Lines.size() >= BatchLines)
    Batches.submit(OS);
}

void DumpTool::Batch::format() {
  size_t Need = Text.size();
  for (const DumpLine &L : Lines)
    if (L.What != DumpLine::Text)
      Need += kMaxMemoryLine;
  if (Need > OutCapacity) {
    Out.reset(new char[Need]);
    OutCapacity = Need;
  }
  char *P = Out.get();
  const char *T = Text.data();
  for (const DumpLine &L : Lines) {
    if (L.What == DumpLine::Text) {
      std::memcpy(P, T, L.Length);
      P += L.Length;
      T += L.Length;
      continue;
    }
    P = memoryLine(P, L.WorkgroupOffset, L.What == DumpLine::Store, L.Address,
                   L.Length);
  }
  OutSize = size_t(P - Out.get());
}

bool DumpTool::describeOwnValue(const Record &R) {
  auto It = std::back_inserter(Buffer);
  switch (R.Value.Type) {
  case format::ValueType::BufferBase:
  case format::ValueType::BufferExtent: {
    std::string Name = fmt::format("param#{}", unsigned(R.Value.Ordinal));
    if (R.Workgroup &&
        R.Workgroup->Record.DispatchId < Meta->SiteFunctions.size())
      if (const FunctionExtension *X = Meta->functionExtension(
              Meta->SiteFunctions[R.Workgroup->Record.DispatchId]))
        if (R.Value.Ordinal < X->Params.size())
          Name = X->Params[R.Value.Ordinal].Name;
    if (R.Value.Type == format::ValueType::BufferBase)
      fmt::format_to(It, "buffer {} at {:016X}", Name, R.Value.Bits);
    else
      fmt::format_to(It, "buffer {} is {} bytes", Name, R.Value.Bits);
    return true;
  }
  case format::ValueType::Continuation:
    fmt::format_to(It, "continues the workgroup begun at ring byte {:X}",
                   R.Value.Bits);
    return true;
  case format::ValueType::Launch:
    fmt::format_to(It, "launch {}", R.Value.Bits);
    return true;
  case format::ValueType::ThreadStack: {
    const format::ThreadStackRange Own = format::threadStackRange(R.Value.Bits);
    fmt::format_to(It, "thread's own stack {:016X}-{:016X}", Own.Lo, Own.Hi);
    return true;
  }
  case format::ValueType::Unselected:
    if (R.Value.Bits < Meta->Filters.size())
      fmt::format_to(It, "not selected by WGTRACE_FILTER '{}'",
                     Meta->Filters[R.Value.Bits]);
    else
      fmt::format_to(It, "not selected by WGTRACE_FILTER #{}", R.Value.Bits);
    return true;
  case format::ValueType::Critical:
  case format::ValueType::CriticalSection: {
    const char *Verb = R.Value.Type == format::ValueType::Critical ? "in"
                       : R.Value.Ordinal == 1                      ? "enters"
                                                                   : "leaves";
    // The access sites name the section; the bits identify it.
    auto Name = Meta->CriticalNames.find(R.Value.Bits);
    if (Name == Meta->CriticalNames.end())
      fmt::format_to(It, "{} critical section {:016X}", Verb, R.Value.Bits);
    else if (Name->second.empty())
      fmt::format_to(It, "{} the unnamed critical section", Verb);
    else
      fmt::format_to(It, "{} critical section '{}'", Verb, Name->second);
    return true;
  }
  case format::ValueType::UninstrumentedCall:
    if (R.Value.Bits < Meta->IndirectCalls.size()) {
      const IndirectCall &Call = Meta->IndirectCalls[R.Value.Bits];
      fmt::format_to(It, "uninstrumented call: {} at {}", Call.Text,
                     Call.Where.str(/*WithColumn=*/true));
    } else {
      fmt::format_to(It, "uninstrumented call #{}", R.Value.Bits);
    }
    return true;
  default:
    return false;
  }
}

void DumpTool::flushIfFull() {
  if (Buffer.size() < (64u << 10))
    return;
  OS.write(Buffer.data(), Buffer.size());
  Buffer.clear();
}

void DumpTool::finish() {
  Batches.drain(OS);
  OS.write(Buffer.data(), Buffer.size());
  Buffer.clear();
  OS.flush();
}

} // namespace wgtrace::viewer
