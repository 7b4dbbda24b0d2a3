//===- Module.cc - The extension module wgtrace._wgtrace ------------------===//
//
// Thin bindings: the tables of a Trace go to Python as dicts of numpy
// columns (one array per column, filled here), which wgtrace/trace.py
// turns into DataFrames; accesses go straight into a structured array.
// The GIL is released while files are decoded.
//
//===----------------------------------------------------------------------===//

#include "AccessTable.h"
#include "FrameCodes.h"
#include "RowMemory.h"
#include "Trace.h"

#include "output/RecordTableTool.h"
#include "simulator/MachineCaches.h"

#include "wgtrace/dispatch_instrument_generated.h"

#include "llvm/Support/GlobPattern.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace wgtrace;
using namespace wgtrace::python;

namespace {

/// Raises wgtrace.TraceError (wgtrace/_errors.py) with \p Message.
[[noreturn]] void raiseTraceError(const std::string &Message) {
  py::object Type = py::module_::import("wgtrace._errors").attr("TraceError");
  py::object Exception = Type(Message);
  PyErr_SetObject(Type.ptr(), Exception.ptr());
  throw py::error_already_set();
}

/// Raises OSError (FileNotFoundError, PermissionError, ... by errno) for a
/// file that cannot be read.
[[noreturn]] void raiseOSError(llvm::Error E, const std::string &Path) {
  std::error_code EC = llvm::errorToErrorCode(std::move(E));
  py::object Exception = py::reinterpret_borrow<py::object>(PyExc_OSError)(
      EC.value(), EC.message(), Path);
  PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(Exception.ptr())),
                  Exception.ptr());
  throw py::error_already_set();
}

template <typename T, typename Row, typename Get>
py::array_t<T> column(const std::vector<Row> &Rows, Get F) {
  py::array_t<T> A{py::ssize_t(Rows.size())};
  T *Out = A.mutable_data();
  for (size_t I = 0; I < Rows.size(); ++I)
    Out[I] = F(Rows[I]);
  return A;
}

/// Text from a trace (names, sources, locations, prints): the file may
/// hold any bytes, so what is not UTF-8 becomes U+FFFD instead of an
/// exception.
py::str text(const std::string &S) {
  PyObject *U =
      PyUnicode_DecodeUTF8(S.data(), py::ssize_t(S.size()), "replace");
  if (!U)
    throw py::error_already_set();
  return py::reinterpret_steal<py::str>(U);
}

py::object optionalText(const std::optional<std::string> &S) {
  if (!S)
    return py::none();
  return text(*S);
}

/// A VALUE as a Python number, exactly as the viewer's export writes it:
/// integers (and pointers) as int, floats as float.
py::object valueObject(uint8_t Type, uint64_t Bits) {
  const auto T = static_cast<format::ValueType>(Type);
  const std::string Number = viewer::valueNumber(T, Bits);
  switch (T) {
  case format::ValueType::Float16:
  case format::ValueType::Float32:
  case format::ValueType::Float64:
  case format::ValueType::BFloat16:
    return py::float_(std::strtod(Number.c_str(), nullptr));
  default:
    break;
  }
  PyObject *I = PyLong_FromString(Number.c_str(), nullptr, 10);
  if (!I)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(I);
}

py::dict sources(const Trace &T) {
  py::list Paths, Errors;
  for (const TraceSource &S : T.sources()) {
    Paths.append(text(S.Path));
    if (!S.Error) {
      Errors.append(py::none());
      continue;
    }
    py::dict E;
    E["message"] = text(S.Error->Message);
    E["offset"] =
        S.Error->Located ? py::object(py::int_(S.Error->Offset)) : py::none();
    E["chunk"] =
        S.Error->Located ? py::object(py::int_(S.Error->Chunk)) : py::none();
    E["chunk_type"] =
        S.Error->Located ? py::object(text(S.Error->ChunkType)) : py::none();
    E["problem"] = text(S.Error->Located ? S.Error->Problem : S.Error->Message);
    Errors.append(E);
  }
  py::list LossText, LossUncounted, Notes, Nothing, Conflicts, RunText, RunJson,
      Uninstrumented;
  for (const FileCensus &C : T.tables().Census) {
    LossText.append(text(C.LossText));
    RunText.append(text(C.RunText));
    RunJson.append(text(C.RunJson));
    Uninstrumented.append(text(C.UninstrumentedText));
    LossUncounted.append(C.LossUncounted);
    py::list FileNotes;
    for (const std::string &N : C.Notes)
      FileNotes.append(text(N));
    Notes.append(FileNotes);
    Nothing.append(text(C.Nothing));
    Conflicts.append(py::cast(C.ConflictingAccessSites));
  }
  py::dict D;
  D["path"] = Paths;
  D["error"] = Errors;
  D["loss_text"] = LossText;
  D["run_text"] = RunText;
  D["run_json"] = RunJson;
  D["uninstrumented_text"] = Uninstrumented;
  D["loss_uncounted"] = LossUncounted;
  D["notes"] = Notes;
  D["nothing"] = Nothing;
  D["conflicting_access_sites"] = Conflicts;
  return D;
}

py::dict functions(const Trace &T) {
  const auto &Rows = T.tables().Functions;
  py::list Name, Target, Layout, Source;
  for (const FunctionEntry &F : Rows) {
    Name.append(optionalText(F.Name));
    Target.append(optionalText(F.Target));
    Layout.append(optionalText(F.Layout));
    Source.append(optionalText(F.Source));
  }
  py::dict D;
  D["file"] =
      column<uint32_t>(Rows, [](const FunctionEntry &F) { return F.File; });
  D["name"] = Name;
  D["target"] = Target;
  D["layout"] = Layout;
  D["source"] = Source;
  return D;
}

py::dict sites(const Trace &T) {
  using E = SiteEntry;
  const auto &Rows = T.tables().Sites;
  py::list Location;
  for (const E &S : Rows)
    Location.append(text(S.Location));
  py::dict D;
  D["file"] = column<uint32_t>(Rows, [](const E &S) { return S.File; });
  D["site"] = column<uint32_t>(Rows, [](const E &S) { return S.Site; });
  D["kernel"] = column<uint32_t>(Rows, [](const E &S) { return S.Kernel; });
  D["location"] = Location;
  D["direct"] = column<bool>(Rows, [](const E &S) { return S.Direct; });
  D["workgroups"] =
      column<uint64_t>(Rows, [](const E &S) { return S.Workgroups; });
  D["workgroups_lost"] =
      column<uint64_t>(Rows, [](const E &S) { return S.WorkgroupsLost; });
  D["launches"] = column<uint32_t>(Rows, [](const E &S) { return S.Launches; });
  return D;
}

py::dict workgroups(const Trace &T) {
  using W = WorkgroupEntry;
  const auto &Rows = T.tables().Workgroups;
  py::dict D;
  D["file"] = column<uint32_t>(Rows, [](const W &G) { return G.File; });
  D["site"] = column<uint32_t>(Rows, [](const W &G) { return G.Site; });
  D["kernel"] = column<uint32_t>(Rows, [](const W &G) { return G.Kernel; });
  D["launch"] = column<uint32_t>(Rows, [](const W &G) { return G.Launch; });
  D["wg_x"] = column<uint32_t>(Rows, [](const W &G) { return G.Id[0]; });
  D["wg_y"] = column<uint32_t>(Rows, [](const W &G) { return G.Id[1]; });
  D["wg_z"] = column<uint32_t>(Rows, [](const W &G) { return G.Id[2]; });
  D["count_x"] = column<uint32_t>(Rows, [](const W &G) { return G.Count[0]; });
  D["count_y"] = column<uint32_t>(Rows, [](const W &G) { return G.Count[1]; });
  D["count_z"] = column<uint32_t>(Rows, [](const W &G) { return G.Count[2]; });
  D["processor"] =
      column<uint32_t>(Rows, [](const W &G) { return G.Processor; });
  D["loads"] = column<uint64_t>(Rows, [](const W &G) { return G.Loads; });
  D["stores"] = column<uint64_t>(Rows, [](const W &G) { return G.Stores; });
  D["load_bytes"] =
      column<uint64_t>(Rows, [](const W &G) { return G.LoadBytes; });
  D["store_bytes"] =
      column<uint64_t>(Rows, [](const W &G) { return G.StoreBytes; });
  D["values"] = column<uint64_t>(Rows, [](const W &G) { return G.Values; });
  D["prints"] = column<uint64_t>(Rows, [](const W &G) { return G.Prints; });
  D["pieces"] = column<uint32_t>(Rows, [](const W &G) { return G.Pieces; });
  D["beginning_lost"] =
      column<bool>(Rows, [](const W &G) { return G.BeginningLost; });
  D["selected"] = column<bool>(Rows, [](const W &G) { return G.Selected; });
  D["chunk"] = column<uint32_t>(Rows, [](const W &G) { return G.Chunk; });
  D["ring_offset"] =
      column<uint64_t>(Rows, [](const W &G) { return G.RingOffset; });
  D["timed"] = column<bool>(Rows, [](const W &G) { return G.Timed; });
  D["start_ns"] = column<uint64_t>(Rows, [](const W &G) { return G.StartNs; });
  D["end_ns"] = column<uint64_t>(Rows, [](const W &G) { return G.EndNs; });
  return D;
}

py::dict values(const Trace &T) {
  using V = ValueEntry;
  const auto &Rows = T.tables().Values;
  py::list Value;
  for (const V &Row : Rows)
    Value.append(valueObject(Row.Type, Row.Bits));
  py::dict D;
  D["workgroup"] =
      column<uint32_t>(Rows, [](const V &R) { return R.Workgroup; });
  D["ordinal"] = column<uint8_t>(Rows, [](const V &R) { return R.Ordinal; });
  D["type"] = column<uint8_t>(Rows, [](const V &R) { return R.Type; });
  D["bits"] = column<uint64_t>(Rows, [](const V &R) { return R.Bits; });
  D["value"] = Value;
  return D;
}

py::dict prints(const Trace &T) {
  const auto &Rows = T.tables().Prints;
  py::list Text;
  for (const PrintEntry &P : Rows)
    Text.append(text(P.Text));
  py::dict D;
  D["workgroup"] =
      column<uint32_t>(Rows, [](const PrintEntry &P) { return P.Workgroup; });
  D["text"] = Text;
  return D;
}

py::dict timing(const Trace &T) {
  using E = TimingEntry;
  const auto &Rows = T.tables().Timing;
  py::dict D;
  D["workgroup"] =
      column<uint32_t>(Rows, [](const E &R) { return R.Workgroup; });
  D["processor"] =
      column<uint32_t>(Rows, [](const E &R) { return R.Processor; });
  D["start_ns"] = column<uint64_t>(Rows, [](const E &R) { return R.StartNs; });
  D["end_ns"] = column<uint64_t>(Rows, [](const E &R) { return R.EndNs; });
  return D;
}

py::dict rings(const Trace &T) {
  using R = RingEntry;
  const auto &Rows = T.tables().Rings;
  py::dict D;
  D["file"] = column<uint32_t>(Rows, [](const R &E) { return E.File; });
  D["chunk"] = column<uint32_t>(Rows, [](const R &E) { return E.Chunk; });
  D["file_offset"] =
      column<uint64_t>(Rows, [](const R &E) { return E.FileOffset; });
  D["size"] = column<uint64_t>(Rows, [](const R &E) { return E.Size; });
  D["head"] = column<uint64_t>(Rows, [](const R &E) { return E.Head; });
  D["wrapped"] = column<bool>(Rows, [](const R &E) { return E.Wrapped; });
  D["lost_bytes"] =
      column<uint64_t>(Rows, [](const R &E) { return E.LostBytes; });
  D["start_offset"] =
      column<uint64_t>(Rows, [](const R &E) { return E.StartOffset; });
  D["has_trailer"] =
      column<bool>(Rows, [](const R &E) { return E.HasTrailer; });
  D["ring_id"] = column<uint32_t>(Rows, [](const R &E) { return E.RingId; });
  D["chunk_sequence"] =
      column<uint32_t>(Rows, [](const R &E) { return E.ChunkSequence; });
  D["records"] = column<uint64_t>(Rows, [](const R &E) { return E.Records; });
  D["workgroup_records"] =
      column<uint64_t>(Rows, [](const R &E) { return E.WorkgroupRecords; });
  D["accesses"] = column<uint64_t>(Rows, [](const R &E) { return E.Accesses; });
  return D;
}

/// An optional count as a Python int or None.
py::object optionalCount(const std::optional<uint64_t> &V) {
  return V ? py::object(py::int_(*V)) : py::none();
}

py::dict loss(const Trace &T) {
  using L = LossEntry;
  const auto &Rows = T.tables().Loss;
  py::list Records, Workgroups;
  for (const L &E : Rows) {
    Records.append(optionalCount(E.RecordsLost));
    Workgroups.append(optionalCount(E.WorkgroupsLost));
  }
  py::dict D;
  D["file"] = column<uint32_t>(Rows, [](const L &E) { return E.File; });
  D["chunk"] = column<uint32_t>(Rows, [](const L &E) { return E.Chunk; });
  D["file_offset"] =
      column<uint64_t>(Rows, [](const L &E) { return E.FileOffset; });
  D["from_trailer"] =
      column<bool>(Rows, [](const L &E) { return E.FromTrailer; });
  D["ring_id"] = column<uint32_t>(Rows, [](const L &E) { return E.RingId; });
  D["bytes_recorded"] =
      column<uint64_t>(Rows, [](const L &E) { return E.BytesRecorded; });
  D["bytes_lost"] =
      column<uint64_t>(Rows, [](const L &E) { return E.BytesLost; });
  D["records_lost"] = Records;
  D["workgroups_lost"] = Workgroups;
  return D;
}

/// The columns every source place has: file, source_file, line, column,
/// scope, text.
template <typename Row> py::dict sourceColumns(const std::vector<Row> &Rows) {
  py::list SourceFile, Scope, Text;
  for (const SourceEntry &E : Rows) {
    SourceFile.append(text(E.SourceFile));
    Scope.append(text(E.Scope));
    Text.append(text(E.Text));
  }
  py::dict D;
  D["file"] =
      column<uint32_t>(Rows, [](const SourceEntry &E) { return E.File; });
  D["source_file"] = SourceFile;
  D["line"] =
      column<uint32_t>(Rows, [](const SourceEntry &E) { return E.Line; });
  D["column"] =
      column<uint32_t>(Rows, [](const SourceEntry &E) { return E.Column; });
  D["scope"] = Scope;
  D["text"] = Text;
  return D;
}

py::dict accessSites(const Trace &T) {
  const auto &Rows = T.tables().AccessSites;
  py::dict D = sourceColumns(Rows);
  py::list Kind;
  for (const AccessSiteEntry &E : Rows)
    Kind.append(fb::EnumNameAccessKind(static_cast<fb::AccessKind>(E.Kind)));
  D["access_site"] =
      column<uint32_t>(Rows, [](const AccessSiteEntry &E) { return E.Id; });
  D["kind"] = Kind;
  return D;
}

py::dict buffers(const Trace &T) {
  using B = BufferEntry;
  const auto &Rows = T.tables().Buffers;
  py::list Name, Type, Extent, Label;
  for (const B &E : Rows) {
    Name.append(text(E.Name));
    Type.append(text(E.Type));
    Extent.append(optionalCount(E.Extent));
    Label.append(text(E.Label));
  }
  py::dict D;
  D["file"] = column<uint32_t>(Rows, [](const B &E) { return E.File; });
  D["kernel"] = column<uint32_t>(Rows, [](const B &E) { return E.Kernel; });
  D["name"] = Name;
  D["type"] = Type;
  D["ordinal"] = column<uint32_t>(Rows, [](const B &E) { return E.Ordinal; });
  D["base"] = column<uint64_t>(Rows, [](const B &E) { return E.Base; });
  D["extent"] = Extent;
  D["label"] = Label;
  return D;
}

py::dict untraced(const Trace &T) {
  const auto &Rows = T.tables().Untraced;
  py::dict D = sourceColumns(Rows);
  py::list Reason;
  for (const UntracedEntry &E : Rows)
    Reason.append(text(E.Reason));
  D["reason"] = Reason;
  return D;
}

/// The selection of accesses(): one byte per workgroup.
std::vector<uint8_t> selection(const Trace &T, const py::object &Wanted) {
  const size_t N = T.tables().Workgroups.size();
  if (Wanted.is_none())
    return std::vector<uint8_t>(N, 1);
  auto Mask = py::array_t < uint8_t,
       py::array::c_style | py::array::forcecast > (Wanted);
  if (Mask.ndim() != 1 || size_t(Mask.size()) != N)
    throw py::value_error("the selection must have one entry per workgroup");
  return std::vector<uint8_t>(Mask.data(), Mask.data() + N);
}

/// Fills \p Out (room for \p N rows) without the GIL; raises TraceError.
void fill(const Trace &T, const std::vector<uint8_t> &Selected, AccessRow *Out,
          size_t N, RowMemory *Memory) {
  llvm::Error E = llvm::Error::success();
  {
    py::gil_scoped_release Unlocked;
    if (Memory)
      Memory->startPopulating();
    E = T.fillAccesses(Selected.data(), Out, N);
    if (Memory)
      Memory->stopPopulating();
  }
  if (E)
    raiseTraceError(llvm::toString(std::move(E)));
}

/// Below this size a mapping and a thread cost more than they save.
constexpr size_t kSmallArrayBytes = size_t(32) << 20;

/// A fresh numpy array of \p N elements of T. A large one is a RowMemory
/// mapping, which the array owns and \p Memory points at (else null).
template <typename T>
py::array_t<T> freshArray(size_t N, T *&Out, RowMemory *&Memory) {
  Memory = nullptr;
  if (N * sizeof(T) < kSmallArrayBytes) {
    py::array_t<T> A{py::ssize_t(N)};
    Out = A.mutable_data();
    return A;
  }
  std::unique_ptr<RowMemory> Mapped = RowMemory::map(N * sizeof(T));
  if (!Mapped)
    throw std::bad_alloc();
  Out = static_cast<T *>(Mapped->data());
  py::capsule Owner(Mapped.get(),
                    [](void *M) { delete static_cast<RowMemory *>(M); });
  Memory = Mapped.release();
  return py::array_t<T>({py::ssize_t(N)}, {py::ssize_t(sizeof(T))}, Out, Owner);
}

py::array accesses(const Trace &T, const py::object &Wanted) {
  const std::vector<uint8_t> Selected = selection(T, Wanted);
  const size_t N = T.countAccesses(Selected.data());
  AccessRow *Out = nullptr;
  RowMemory *Memory = nullptr;
  py::array_t<AccessRow> Rows = freshArray(N, Out, Memory);
  fill(T, Selected, Out, N, Memory);
  return std::move(Rows);
}

/// The rows of an array that accesses() returned (C-contiguous, of
/// AccessRow): anything else is refused, not reinterpreted.
std::pair<const AccessRow *, size_t> accessRows(const py::array &Rows) {
  if (!py::isinstance<py::array_t<AccessRow>>(Rows) || Rows.ndim() != 1 ||
      !(Rows.flags() & py::array::c_style))
    throw py::value_error("frame_codes takes a contiguous array of "
                          "wgtrace.ACCESS_DTYPE");
  return {static_cast<const AccessRow *>(Rows.data()), size_t(Rows.size())};
}

template <typename Code>
py::array gatherTyped(const AccessRow *Rows, size_t N, CodeKey Key,
                      const py::array &Table, const py::array &FileOf) {
  auto T = py::array_t < Code,
       py::array::c_style | py::array::forcecast > (Table);
  auto F = py::array_t < uint32_t,
       py::array::c_style | py::array::forcecast > (FileOf);
  Code *Out = nullptr;
  RowMemory *Memory = nullptr;
  py::array_t<Code> Codes = freshArray(N, Out, Memory);
  {
    py::gil_scoped_release Unlocked;
    if (Memory)
      Memory->startPopulating();
    gatherCodes<Code>(Rows, N, Key, T.data(), size_t(T.size()), F.data(),
                      size_t(F.size()), Out);
    if (Memory)
      Memory->stopPopulating();
  }
  return std::move(Codes);
}

/// Per row of \p Rows, the code \p Table gives its key (FrameCodes.h);
/// the codes have the table's integer type (int8, int16, int32 or int64).
py::array frameCodes(const py::array &Rows, const std::string &By,
                     const py::array &Table, const py::object &FileOf) {
  auto [Data, N] = accessRows(Rows);
  CodeKey Key;
  if (By == "workgroup")
    Key = CodeKey::Workgroup;
  else if (By == "buffer")
    Key = CodeKey::Buffer;
  else if (By == "file_access_site")
    Key = CodeKey::FileAccessSite;
  else if (By == "kind")
    Key = CodeKey::Kind;
  else
    throw py::value_error("frame_codes: unknown key '" + By + "'");
  py::array Files =
      FileOf.is_none() ? py::array_t<uint32_t>(0) : py::array::ensure(FileOf);
  if (Key == CodeKey::FileAccessSite && FileOf.is_none())
    throw py::value_error("frame_codes: file_access_site needs file_of");
  const py::dtype Type = Table.dtype();
  // Unsigned tables are gathered as the signed type of their width; the
  // caller views the codes as its own type.
  if (Type.kind() != 'i' && Type.kind() != 'u')
    throw py::value_error("frame_codes: the table must hold integers");
  switch (Type.itemsize()) {
  case 1:
    return gatherTyped<int8_t>(Data, N, Key, Table, Files);
  case 2:
    return gatherTyped<int16_t>(Data, N, Key, Table, Files);
  case 4:
    return gatherTyped<int32_t>(Data, N, Key, Table, Files);
  default:
    return gatherTyped<int64_t>(Data, N, Key, Table, Files);
  }
}

/// The analysis \p Kind with the options of its subcommand, checked as
/// the CLI checks them (ValueError).
AnalysisRequest
request(const std::string &Kind, uint64_t LineSize, uint64_t Limit,
        std::optional<std::string> L1, std::optional<std::string> L2,
        std::optional<std::string> LL, bool Cold, const std::string &By,
        std::optional<std::string> Kernel, std::optional<uint32_t> Dispatch,
        std::optional<std::array<uint32_t, 3>> Workgroup,
        std::optional<unsigned> Threads) {
  AnalysisRequest R;
  if (Kind == "summary")
    R.Kind = AnalysisKind::Summary;
  else if (Kind == "footprint")
    R.Kind = AnalysisKind::Footprint;
  else if (Kind == "races")
    R.Kind = AnalysisKind::Races;
  else if (Kind == "cache")
    R.Kind = AnalysisKind::Cache;
  else if (Kind == "annotate")
    R.Kind = AnalysisKind::Annotate;
  else
    throw py::value_error("unknown analysis '" + Kind + "'");
  R.LineSize = LineSize;
  R.Limit = Limit;
  if (R.Kind == AnalysisKind::Cache || R.Kind == AnalysisKind::Annotate) {
    llvm::Expected<std::vector<viewer::CacheLevel>> Levels =
        viewer::chooseCacheLevels(L1, L2, LL, R.CacheNote);
    if (!Levels)
      throw py::value_error(llvm::toString(Levels.takeError()));
    R.CacheLevels = std::move(*Levels);
  }
  R.Cold = Cold;
  std::optional<viewer::GroupBy> Grouping = viewer::parseGroupBy(By);
  if (!Grouping)
    throw py::value_error(
        "by must be workgroup, site, kernel, line or buffer, got '" + By + "'");
  R.By = *Grouping;
  if (Kernel) {
    if (llvm::Expected<llvm::GlobPattern> G =
            llvm::GlobPattern::create(*Kernel);
        !G)
      throw py::value_error("kernel: " + llvm::toString(G.takeError()));
    R.Filter.Kernel = Kernel;
  }
  R.Filter.Dispatch = Dispatch;
  R.Filter.Id = Workgroup;
  if (Threads && *Threads == 0)
    throw py::value_error("threads must be at least 1, got 0");
  // None: the cores available.
  R.Threads = Threads.value_or(0);
  return R;
}

py::dict analysisDict(const AnalysisResult &Result) {
  py::dict D;
  D["json"] = text(Result.Json);
  D["nothing"] = text(Result.Nothing);
  D["damaged"] = Result.Damaged;
  return D;
}

py::dict analysis(const Trace &T, uint32_t File, const std::string &Kind,
                  uint64_t LineSize, uint64_t Limit,
                  std::optional<std::string> L1, std::optional<std::string> L2,
                  std::optional<std::string> LL, bool Cold,
                  const std::string &By, std::optional<std::string> Kernel,
                  std::optional<uint32_t> Dispatch,
                  std::optional<std::array<uint32_t, 3>> Workgroup,
                  std::optional<unsigned> Threads) {
  if (File >= T.sources().size())
    throw py::index_error("no such file");
  const AnalysisRequest R = request(Kind, LineSize, Limit, L1, L2, LL, Cold, By,
                                    Kernel, Dispatch, Workgroup, Threads);
  llvm::Expected<AnalysisResult> Result = AnalysisResult();
  {
    py::gil_scoped_release Unlocked;
    Result = T.analysis(File, R);
  }
  if (!Result)
    raiseTraceError(llvm::toString(Result.takeError()));
  return analysisDict(*Result);
}

/// One analysis of the file at \p Path, in one pass of the reader, without
/// the index wgtrace.open() builds (wgtrace.dask's tasks): the CLI's
/// `wgtrace-view <Kind> --json Path`. On one thread unless \p Threads says
/// otherwise: Dask runs a task per file.
py::dict analyseFile(const std::string &Path, const std::string &Kind,
                     uint64_t LineSize, uint64_t Limit,
                     std::optional<std::string> L1,
                     std::optional<std::string> L2,
                     std::optional<std::string> LL, bool Cold,
                     const std::string &By, std::optional<std::string> Kernel,
                     std::optional<uint32_t> Dispatch,
                     std::optional<std::array<uint32_t, 3>> Workgroup,
                     std::optional<unsigned> Threads) {
  const AnalysisRequest R = request(Kind, LineSize, Limit, L1, L2, LL, Cold, By,
                                    Kernel, Dispatch, Workgroup, Threads);
  llvm::Expected<viewer::TraceFile> File = viewer::TraceFile::open(Path);
  if (!File)
    raiseOSError(File.takeError(), Path);
  AnalysisResult Result;
  {
    py::gil_scoped_release Unlocked;
    Result = runAnalysis(*File, R);
  }
  return analysisDict(Result);
}

std::unique_ptr<Trace> open(const std::vector<std::string> &Paths) {
  llvm::Expected<std::unique_ptr<Trace>> T = nullptr;
  std::string Unreadable;
  {
    py::gil_scoped_release Unlocked;
    T = Trace::open(Paths, Unreadable);
  }
  if (!T)
    raiseOSError(T.takeError(), Unreadable);
  return std::move(*T);
}

} // namespace

PYBIND11_MODULE(_wgtrace, M) {
  M.doc() = "The wgtrace trace decoder (the viewer's), for the wgtrace "
            "package: use `import wgtrace`, not this module.";
  M.attr("__version__") = WGTRACE_VERSION;

  PYBIND11_NUMPY_DTYPE_EX(AccessRow, Address, "address", Workgroup, "workgroup",
                          Site, "site", Launch, "launch", WgX, "wg_x", WgY,
                          "wg_y", WgZ, "wg_z", Processor, "processor", Buffer,
                          "buffer", Length, "length", AccessSite, "access_site",
                          Kind, "kind", Atomic, "atomic", Critical, "critical");
  M.attr("access_dtype") = py::dtype::of<AccessRow>();
  M.def("frame_codes", &frameCodes, py::arg("rows"), py::arg("by"),
        py::arg("table"), py::arg("file_of") = py::none());

  py::list TypeNames;
  for (unsigned T = 0; T < format::kValueTypeCount; ++T)
    TypeNames.append(viewer::valueTypeName(format::ValueType(T)));
  M.attr("value_type_names") = TypeNames;

  M.def("analyse_file", &analyseFile, py::arg("path"), py::arg("kind"),
        py::arg("line_size") = 64, py::arg("limit") = 100,
        py::arg("l1") = py::none(), py::arg("l2") = py::none(),
        py::arg("ll") = py::none(), py::arg("cold") = false,
        py::arg("by") = "workgroup", py::arg("kernel") = py::none(),
        py::arg("dispatch") = py::none(), py::arg("workgroup") = py::none(),
        py::arg("threads") = 1);

  py::class_<Trace>(M, "Trace")
      .def_static("open", &open, py::arg("paths"))
      .def("sources", &sources)
      .def("kernel_names",
           [](const Trace &T) {
             py::list Names;
             for (const std::string &Name : T.tables().KernelNames)
               Names.append(text(Name));
             return Names;
           })
      .def("functions", &functions)
      .def("sites", &sites)
      .def("workgroups", &workgroups)
      .def("values", &values)
      .def("prints", &prints)
      .def("timing", &timing)
      .def("rings", &rings)
      .def("loss", &loss)
      .def("access_sites", &accessSites)
      .def("untraced", &untraced)
      .def("buffers", &buffers)
      .def("accesses", &accesses, py::arg("selection") = py::none())
      .def("analysis", &analysis, py::arg("file"), py::arg("kind"),
           py::arg("line_size") = 64, py::arg("limit") = 100,
           py::arg("l1") = py::none(), py::arg("l2") = py::none(),
           py::arg("ll") = py::none(), py::arg("cold") = false,
           py::arg("by") = "workgroup", py::arg("kernel") = py::none(),
           py::arg("dispatch") = py::none(), py::arg("workgroup") = py::none(),
           py::arg("threads") = 1);
}
