//===- Trace.cc -----------------------------------------------------------===//

#include "Trace.h"

#include "TraceIndex.h"

#include "reader/ChunkError.h"
#include "reader/TraceReader.h"

using namespace llvm;
using namespace wgtrace::viewer;

namespace wgtrace::python {

static DecodeError decodeError(Error E) {
  DecodeError D;
  handleAllErrors(
      std::move(E),
      [&](const ChunkErrorInfo &C) {
        D.Message = C.message();
        D.Located = true;
        D.Offset = C.fileOffset();
        D.Chunk = C.where().Index;
        D.ChunkType = C.where().TypeName;
        D.Problem = C.problem();
      },
      [&](const ErrorInfoBase &Other) { D.Message = Other.message(); });
  return D;
}

Expected<std::unique_ptr<Trace>>
Trace::open(const std::vector<std::string> &Paths, std::string &Unreadable) {
  std::unique_ptr<Trace> T(new Trace());
  T->Sources.reserve(Paths.size());
  for (const std::string &Path : Paths) {
    Unreadable = Path;
    Expected<TraceFile> File = TraceFile::open(Path);
    if (!File)
      return File.takeError();
    TraceSource S;
    S.Path = Path;
    S.File = std::move(*File);
    if (std::error_code EC = sys::fs::status(Path, S.Status))
      return createStringError(EC, "cannot open: %s", EC.message().c_str());
    Unreadable.clear();
    T->Sources.push_back(std::move(S));
  }
  for (uint32_t I = 0; I < T->Sources.size(); ++I) {
    TraceSource &S = T->Sources[I];
    S.FirstWorkgroup = uint32_t(T->Tables.Workgroups.size());
    TraceIndex Index(T->Tables, I);
    TraceReader Reader(S.File, RingMode::WrapAware);
    AnalysisTool *Tools[] = {&Index};
    if (Error E = Reader.run(Tools))
      S.Error = decodeError(std::move(E));
    S.WorkgroupCount = uint32_t(T->Tables.Workgroups.size()) - S.FirstWorkgroup;
  }
  return T;
}

Error Trace::unchanged(const TraceSource &S) const {
  sys::fs::file_status Now;
  if (std::error_code EC = sys::fs::status(S.Path, Now))
    return createStringError(EC, "%s: cannot read it again: %s", S.Path.c_str(),
                             EC.message().c_str());
  if (Now.getUniqueID() != S.Status.getUniqueID() ||
      Now.getSize() != S.Status.getSize() ||
      Now.getLastModificationTime() != S.Status.getLastModificationTime())
    return createStringError(
        std::make_error_code(std::errc::file_exists),
        "%s: the file changed since it was opened; open it again",
        S.Path.c_str());
  return Error::success();
}

size_t Trace::countAccesses(const uint8_t *Wanted) const {
  size_t N = 0;
  for (size_t W = 0; W < Tables.Workgroups.size(); ++W)
    if (Wanted[W])
      N += Tables.Workgroups[W].Loads + Tables.Workgroups[W].Stores;
  return N;
}

Error Trace::fillAccesses(const uint8_t *Wanted, AccessRow *Out,
                          size_t Capacity) const {
  size_t Filled = 0;
  for (const TraceSource &S : Sources) {
    // A file without a selected workgroup (with accesses) is not read.
    bool Needed = false;
    for (uint32_t W = S.FirstWorkgroup;
         W < S.FirstWorkgroup + S.WorkgroupCount && !Needed; ++W)
      Needed = Wanted[W] &&
               (Tables.Workgroups[W].Loads || Tables.Workgroups[W].Stores);
    if (!Needed)
      continue;
    if (Error E = unchanged(S))
      return E;
    const uint32_t FileIndex = uint32_t(&S - Sources.data());
    AccessTable Table(Tables, S.File, FileIndex, Wanted, Out + Filled,
                      Capacity - Filled);
    if (!Table.fill())
      return createStringError(
          std::make_error_code(std::errc::file_exists),
          "%s: the file decodes differently than when it was opened; open "
          "it again",
          S.Path.c_str());
    Filled += Table.size();
  }
  if (Filled != Capacity)
    return createStringError(
        std::make_error_code(std::errc::file_exists),
        "the trace decoded %zu accesses of the %zu it held when it was "
        "opened; open it again",
        Filled, Capacity);
  return Error::success();
}

Expected<AnalysisResult> Trace::analysis(uint32_t File,
                                         const AnalysisRequest &Request) const {
  const TraceSource &S = Sources[File];
  if (Error E = unchanged(S))
    return E;
  return runAnalysis(S.File, Request);
}

} // namespace wgtrace::python
