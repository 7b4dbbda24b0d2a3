//===- RecordTableTool.cc -------------------------------------------------===//

#include "output/RecordTableTool.h"

#include "reader/BufferResolver.h"
#include "reader/Metadata.h"

#include "llvm/Support/JSON.h"

#include <fmt/compile.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>

using namespace llvm;

namespace wgtrace::viewer {

const char *valueTypeName(format::ValueType Type) {
  static const char *const Names[] = {"i8",  "u8",  "i16", "u16", "i32",
                                      "u32", "i64", "u64", "ptr", "f16",
                                      "f32", "f64", "bf16"};
  unsigned I = unsigned(Type);
  if (I < format::kValueTypeCount)
    return Names[I];
  switch (Type) {
  case format::ValueType::BufferBase:
    return "buffer_base";
  case format::ValueType::BufferExtent:
    return "buffer_extent";
  case format::ValueType::Continuation:
    return "continuation";
  case format::ValueType::UninstrumentedCall:
    return "uninstrumented_call";
  case format::ValueType::Atomic:
    return "atomic";
  case format::ValueType::Launch:
    return "launch";
  case format::ValueType::Critical:
    return "critical";
  case format::ValueType::CriticalSection:
    return "critical_section";
  case format::ValueType::Unselected:
    return "unselected";
  case format::ValueType::ThreadStack:
    return "thread_stack";
  default:
    return "unknown";
  }
}

static float halfToFloat(uint16_t H) {
  // IEEE binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits.
  int Exp = (H >> 10) & 0x1F;
  int Frac = H & 0x3FF;
  float Sign = (H & 0x8000) ? -1.0f : 1.0f;
  if (Exp == 0)
    return Sign * std::ldexp(float(Frac), -24);
  if (Exp == 31)
    return Frac ? NAN : Sign * INFINITY;
  return Sign * std::ldexp(float(Frac | 0x400), Exp - 25);
}

std::string valueNumber(format::ValueType Type, uint64_t Bits) {
  using VT = format::ValueType;
  auto Float = [](double D) -> std::string {
    if (std::isnan(D))
      return "nan";
    if (std::isinf(D))
      return D < 0 ? "-inf" : "inf";
    return fmt::format("{}", D);
  };
  switch (Type) {
  case VT::SInt8:
    return fmt::format("{}", int(int8_t(Bits)));
  case VT::UInt8:
    return fmt::format("{}", unsigned(uint8_t(Bits)));
  case VT::SInt16:
    return fmt::format("{}", int(int16_t(Bits)));
  case VT::UInt16:
    return fmt::format("{}", unsigned(uint16_t(Bits)));
  case VT::SInt32:
    return fmt::format("{}", int32_t(Bits));
  case VT::UInt32:
    return fmt::format("{}", uint32_t(Bits));
  case VT::SInt64:
    return fmt::format("{}", int64_t(Bits));
  case VT::UInt64:
  case VT::Pointer:
  case VT::BufferBase:
  case VT::BufferExtent:
  case VT::Continuation:
  case VT::UninstrumentedCall:
  case VT::Atomic:
  case VT::Launch:
  case VT::Critical:
  case VT::CriticalSection:
  case VT::Unselected:
  case VT::ThreadStack:
    return fmt::format("{}", Bits);
  case VT::Float16:
    return Float(halfToFloat(uint16_t(Bits)));
  case VT::BFloat16: {
    uint32_t B = uint32_t(uint16_t(Bits)) << 16;
    float F;
    std::memcpy(&F, &B, sizeof(F));
    return Float(F);
  }
  case VT::Float32: {
    uint32_t B = uint32_t(Bits);
    float F;
    std::memcpy(&F, &B, sizeof(F));
    // Shortest for the float itself, not for its double widening.
    if (std::isnan(F) || std::isinf(F))
      return Float(F);
    return fmt::format("{}", F);
  }
  case VT::Float64: {
    double D;
    std::memcpy(&D, &Bits, sizeof(D));
    return Float(D);
  }
  }
  return fmt::format("{}", Bits);
}

static const char *kindName(format::Tag T) {
  switch (T) {
  case format::Tag::Workgroup:
    return "workgroup";
  case format::Tag::Print:
    return "print";
  case format::Tag::Value:
    return "value";
  case format::Tag::MemoryLoad:
    return "load";
  case format::Tag::MemoryStore:
    return "store";
  default:
    return "unknown";
  }
}

/// RFC 4180: quote when needed, double the quotes.
static void appendCsvField(fmt::memory_buffer &Out, StringRef Text) {
  if (Text.find_first_of(",\"\r\n") == StringRef::npos) {
    Out.append(Text.begin(), Text.end());
    return;
  }
  Out.push_back('"');
  for (char C : Text) {
    if (C == '"')
      Out.push_back('"');
    Out.push_back(C);
  }
  Out.push_back('"');
}

/// The columns of a load or store row; the names as quoted already. Not
/// in the anonymous namespace: BatchRow, which RecordTableTool::Batch
/// holds, holds one (GCC's -Wsubobject-linkage).
struct MemoryRow {
  unsigned Chunk;
  uint64_t Offset;
  bool IsStore;
  std::array<uint32_t, 3> Id;
  uint32_t ProcessorId;
  uint32_t DispatchId;
  uint64_t Address;
  uint32_t Length;
  uint64_t Invocation;
  bool Atomic;
  format::AtomicOp AtomicOp;
};

namespace {
/// One row of a load or store, as one thread and the pool's threads write
/// it.
void appendMemoryRow(fmt::memory_buffer &Out, RecordTableTool::Format F,
                     const MemoryRow &R, StringRef Function, StringRef File,
                     StringRef Source, StringRef BufferName);
} // namespace

/// A row of a batch: a load or store, whose names are the batch's Names
/// (indices), or the next Text bytes of the batch's Text (a row the
/// decoding thread wrote).
struct BatchRow {
  MemoryRow Row;
  uint32_t Function, Source, BufferName;
  uint32_t TextBytes;
  bool IsText;
};

struct RecordTableTool::Batch {
  Format F = Format::Csv;
  std::string File;
  std::vector<BatchRow> Rows;
  std::string Text;
  /// The names the rows use, each kept once a run of rows repeats it.
  std::vector<std::string> Names;
  /// The index in Names of the function, source and buffer of the row
  /// before.
  std::array<uint32_t, 3> Last{UINT32_MAX, UINT32_MAX, UINT32_MAX};
  fmt::memory_buffer Out;

  void format();
  bool writeTo(raw_ostream &OS) const {
    OS.write(Out.data(), Out.size());
    return true;
  }
  bool empty() const { return Rows.empty(); }
  void clear() {
    Rows.clear();
    Text.clear();
    Names.clear();
    Last = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    Out.clear();
  }

  uint32_t name(unsigned Column, StringRef Name) {
    uint32_t &L = Last[Column];
    if (L == UINT32_MAX || Names[L] != Name) {
      L = uint32_t(Names.size());
      Names.emplace_back(Name);
    }
    return L;
  }
};

RecordTableTool::RecordTableTool(raw_ostream &OS, Format F) : OS(OS), F(F) {
  if (F == Format::Csv)
    fmt::format_to(std::back_inserter(Buffer),
                   "chunk,offset,kind,wg_x,wg_y,wg_z,pid,site,function,"
                   "address,length,value_type,value,workgroup,file,atomic,"
                   "beginning_lost,source,buffer,atomic_op\n");
  setFile("");
}

std::string RecordTableTool::quoted(StringRef Text) const {
  std::string Out;
  if (F == Format::Csv) {
    fmt::memory_buffer B;
    appendCsvField(B, Text);
    Out.assign(B.data(), B.size());
  } else {
    raw_string_ostream OS(Out);
    json::OStream J(OS);
    J.value(Text);
  }
  return Out;
}

void RecordTableTool::setFile(StringRef Name) {
  // A batch names one file: the rows before go in the batches before.
  if (Batches.active()) {
    keepText();
    Batches.submit(OS);
  }
  FileField = quoted(Name);
  // The next file has metadata and buffers of its own (which may be
  // allocated where this file's were).
  BufferFields.clear();
  SourceMeta = CachedMeta = nullptr;
}

void RecordTableTool::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
  Chunk = Info.Where.Index;
  Buffers = Info.Buffers;
}

StringRef RecordTableTool::sourceField(const Record &R) {
  if (R.AccessSite == format::kNoAccessSite || !Meta ||
      R.AccessSite > Meta->AccessSites.size() || Meta->accessSiteIdsWrapped())
    return {};
  if (SourceMeta != Meta) {
    SourceMeta = Meta;
    SourceFields.assign(Meta->AccessSites.size(), std::string());
  }
  std::string &Field = SourceFields[R.AccessSite - 1];
  if (Field.empty()) {
    const SourcePlace &Where = Meta->AccessSites[R.AccessSite - 1].Where;
    if (!Where.known())
      return {};
    Field = quoted(Where.str());
  }
  return Field;
}

StringRef RecordTableTool::bufferField(const Record &R) {
  if (R.Buffer == kNoBuffer || !Buffers || R.Buffer >= Buffers->size())
    return {};
  if (BufferFields.size() <= R.Buffer)
    BufferFields.resize(R.Buffer + 1);
  std::string &Field = BufferFields[R.Buffer];
  if (Field.empty())
    Field = quoted((*Buffers)[R.Buffer].Name);
  return Field;
}

StringRef RecordTableTool::functionField(uint32_t Site) {
  // Rows of one workgroup repeat its function: quote or escape it once.
  if (Site == CachedSite && Meta == CachedMeta)
    return CachedFunction;
  CachedSite = Site;
  CachedMeta = Meta;
  CachedFunction = quoted(Meta->siteFunction(Site).nameOr("(null)"));
  return CachedFunction;
}

/// The atomic mark of a load or store: the operation it is part of
/// (update: both records of a read-modify-write), none for a plain access.
static const char *atomicOpName(format::AtomicOp Op) {
  switch (Op) {
  case format::AtomicOp::Load:
    return "load";
  case format::AtomicOp::Store:
    return "store";
  case format::AtomicOp::Update:
    return "update";
  case format::AtomicOp::None:
    break;
  }
  return "none";
}

void RecordTableTool::record(const Record &R) {
  // One workgroup is one row: copies of a continuing invocation's record
  // and the Continuation values that mark them are the format's plumbing,
  // as are atomic marks (the rows of the accesses they mark say atomic).
  if (R.Workgroup &&
      ((R.Tag == format::Tag::Workgroup && R.Workgroup->Continues) ||
       (R.Tag == format::Tag::Value &&
        (R.Value.Type == format::ValueType::Continuation ||
         R.Value.Type == format::ValueType::Atomic))))
    return;
  const format::WorkgroupRecord *WG =
      R.Workgroup ? &R.Workgroup->Record : nullptr;
  const uint64_t Invocation = R.Workgroup ? R.Workgroup->Invocation : 0;
  const bool Memory =
      R.Tag == format::Tag::MemoryLoad || R.Tag == format::Tag::MemoryStore;
  StringRef Function = WG ? functionField(WG->DispatchId) : StringRef();
  StringRef Source = Memory ? sourceField(R) : StringRef();
  StringRef BufferName = Memory ? bufferField(R) : StringRef();
  auto It = std::back_inserter(Buffer);
  // Loads and stores are nearly every row: compiled format strings, no
  // allocation.
  if (Memory && WG) {
    const MemoryRow Row{Chunk,
                        R.Offset,
                        R.Memory.IsStore,
                        {WG->Id[0], WG->Id[1], WG->Id[2]},
                        WG->ProcessorId,
                        WG->DispatchId,
                        R.Memory.Address,
                        R.Memory.Length,
                        Invocation,
                        R.Atomic,
                        R.AtomicOp};
    if (Batches.active()) {
      Batch &B = openBatch();
      B.Rows.push_back({Row, B.name(0, Function), B.name(1, Source),
                        B.name(2, BufferName), 0, false});
      if (B.Rows.size() >= BatchRows)
        Batches.submit(OS);
      return;
    }
    appendMemoryRow(Buffer, F, Row, Function, FileField, Source, BufferName);
    flushIfFull();
    return;
  }
  std::string Value, Type;
  if (R.Tag == format::Tag::Value) {
    Value = valueNumber(R.Value.Type, R.Value.Bits);
    Type = valueTypeName(R.Value.Type);
  } else if (R.Tag == format::Tag::Print) {
    Value = R.Text.str();
  }
  if (F == Format::Csv) {
    fmt::format_to(It, "{},{},{},", Chunk, R.Offset, kindName(R.Tag));
    if (WG)
      fmt::format_to(It, "{},{},{},{},{},", WG->Id[0], WG->Id[1], WG->Id[2],
                     WG->ProcessorId, WG->DispatchId);
    else
      fmt::format_to(It, ",,,,,");
    Buffer.append(Function.begin(), Function.end());
    if (Memory)
      fmt::format_to(It, ",{},{},", R.Memory.Address, R.Memory.Length);
    else
      fmt::format_to(It, ",,,");
    fmt::format_to(It, "{},", Type);
    appendCsvField(Buffer, Value);
    if (WG)
      fmt::format_to(It, ",{}", Invocation);
    else
      Buffer.push_back(',');
    fmt::format_to(It, ",{},", FileField);
    if (Memory)
      Buffer.push_back(R.Atomic ? '1' : '0');
    Buffer.push_back(',');
    // On the row of the workgroup's WORKGROUP record, which a script
    // joins the others to by the workgroup column.
    if (R.Tag == format::Tag::Workgroup && WG)
      Buffer.push_back(R.Workgroup->BeginningLost ? '1' : '0');
    fmt::format_to(It, ",{},{},{}\n", Source, BufferName,
                   Memory ? atomicOpName(R.AtomicOp) : "");
  } else {
    // json::OStream escapes strings (PRINT text is arbitrary bytes).
    std::string Line;
    raw_string_ostream LS(Line);
    json::OStream J(LS);
    J.object([&] {
      J.attribute("chunk", Chunk);
      J.attribute("offset", R.Offset);
      J.attribute("kind", kindName(R.Tag));
      if (WG) {
        J.attributeArray("wg", [&] {
          for (int I = 0; I < 3; ++I)
            J.value(WG->Id[I]);
        });
        J.attribute("pid", WG->ProcessorId);
        J.attribute("site", WG->DispatchId);
        J.attributeBegin("function");
        J.rawValue(Function);
        J.attributeEnd();
      }
      if (Memory) {
        J.attribute("address", R.Memory.Address);
        J.attribute("length", R.Memory.Length);
      }
      if (R.Tag == format::Tag::Value) {
        J.attribute("value_type", Type);
        // Numbers stay numbers unless JSON cannot hold them (nan, inf).
        double D = 0;
        bool Numeric = !StringRef(Value).getAsDouble(D) && std::isfinite(D);
        if (Numeric) {
          J.attributeBegin("value");
          J.rawValue(Value);
          J.attributeEnd();
        } else {
          J.attribute("value", Value);
        }
      } else if (R.Tag == format::Tag::Print) {
        J.attribute("value", Value);
      }
      if (WG)
        J.attribute("workgroup", Invocation);
      J.attributeBegin("file");
      J.rawValue(FileField);
      J.attributeEnd();
      if (Memory) {
        J.attribute("atomic", R.Atomic);
        J.attribute("atomic_op", atomicOpName(R.AtomicOp));
      }
      if (!Source.empty()) {
        J.attributeBegin("source");
        J.rawValue(Source);
        J.attributeEnd();
      }
      if (!BufferName.empty()) {
        J.attributeBegin("buffer");
        J.rawValue(BufferName);
        J.attributeEnd();
      }
      if (R.Tag == format::Tag::Workgroup && WG)
        J.attribute("beginning_lost", R.Workgroup->BeginningLost);
    });
    LS.flush();
    Buffer.append(Line.data(), Line.data() + Line.size());
    Buffer.push_back('\n');
  }
  if (Batches.active())
    keepText();
  flushIfFull();
}

namespace {
void appendMemoryRow(fmt::memory_buffer &Out, RecordTableTool::Format F,
                     const MemoryRow &R, StringRef Function, StringRef File,
                     StringRef Source, StringRef BufferName) {
  auto It = std::back_inserter(Out);
  if (F == RecordTableTool::Format::Csv)
    fmt::format_to(
        It,
        FMT_COMPILE("{},{},{},{},{},{},{},{},{},{},{},,,{},{},{},,{},{},{}\n"),
        R.Chunk, R.Offset, R.IsStore ? "store" : "load", R.Id[0], R.Id[1],
        R.Id[2], R.ProcessorId, R.DispatchId, Function, R.Address, R.Length,
        R.Invocation, File, R.Atomic ? 1 : 0, Source, BufferName,
        atomicOpName(R.AtomicOp));
  else
    fmt::format_to(It,
                   FMT_COMPILE("{{\"chunk\":{},\"offset\":{},\"kind\":"
                               "\"{}\",\"wg\":[{},{},{}],\"pid\":{},"
                               "\"site\":{},\"function\":{},\"address\":"
                               "{},\"length\":{},\"workgroup\":{},"
                               "\"file\":{},\"atomic\":{},"
                               "\"atomic_op\":\"{}\"{}{}{}{}}}\n"),
                   R.Chunk, R.Offset, R.IsStore ? "store" : "load", R.Id[0],
                   R.Id[1], R.Id[2], R.ProcessorId, R.DispatchId, Function,
                   R.Address, R.Length, R.Invocation, File,
                   R.Atomic ? "true" : "false", atomicOpName(R.AtomicOp),
                   Source.empty() ? "" : ",\"source\":", Source,
                   BufferName.empty() ? "" : ",\"buffer\":", BufferName);
}
} // namespace

RecordTableTool::~RecordTableTool() = default;

void RecordTableTool::setThreads(unsigned Threads, size_t Rows) {
  drainBatches();
  Batches.setThreads(Threads);
  BatchRows = std::max<size_t>(1, Rows);
  // The CSV header, first in the first batch.
  if (Batches.active())
    keepText();
}

RecordTableTool::Batch &RecordTableTool::openBatch() {
  const bool New = !Batches.isOpen();
  Batch &B = Batches.open();
  if (New) {
    B.F = F;
    B.File = FileField;
  }
  return B;
}

void RecordTableTool::keepText() {
  if (!Buffer.size())
    return;
  Batch &B = openBatch();
  B.Text.append(Buffer.data(), Buffer.size());
  // In pieces a row's count holds (a PRINT's text is short; the header).
  for (size_t Left = Buffer.size(); Left;) {
    const size_t Piece = std::min<size_t>(Left, UINT32_MAX);
    BatchRow Row{};
    Row.TextBytes = uint32_t(Piece);
    Row.IsText = true;
    B.Rows.push_back(Row);
    Left -= Piece;
  }
  Buffer.clear();
  if (B.Rows.size() >= BatchRows)
    Batches.submit(OS);
}

void RecordTableTool::Batch::format() {
  const char *T = Text.data();
  for (const BatchRow &Row : Rows) {
    if (Row.IsText) {
      Out.append(T, T + Row.TextBytes);
      T += Row.TextBytes;
      continue;
    }
    appendMemoryRow(Out, F, Row.Row, Names[Row.Function], File,
                    Names[Row.Source], Names[Row.BufferName]);
  }
}

void RecordTableTool::drainBatches() {
  if (!Batches.active())
    return;
  keepText();
  Batches.drain(OS);
}

void RecordTableTool::flushIfFull() {
  if (Buffer.size() < (64u << 10))
    return;
  OS.write(Buffer.data(), Buffer.size());
  Buffer.clear();
}

void RecordTableTool::finish() {
  drainBatches();
  OS.write(Buffer.data(), Buffer.size());
  Buffer.clear();
  OS.flush();
}

} // namespace wgtrace::viewer
