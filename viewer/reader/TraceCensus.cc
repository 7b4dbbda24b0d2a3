//===- TraceCensus.cc -----------------------------------------------------===//

#include "reader/TraceCensus.h"

#include <fmt/format.h>

#include <map>

using namespace llvm;

namespace wgtrace::viewer {

uint64_t TraceCensus::bytesLost() const {
  uint64_t Bytes = 0;
  for (const RingLoss &R : Rings)
    Bytes += R.BytesLost;
  return Bytes;
}

std::string TraceCensus::bufferLabel(uint32_t Index) const {
  if (Index >= Buffers.size())
    return "(none)";
  const BufferInfo &B = Buffers[Index];
  bool OtherKernel = false, OtherMemory = false;
  for (const BufferInfo &O : Buffers) {
    if (&O == &B || O.Name != B.Name)
      continue;
    OtherKernel |= O.Function != B.Function;
    OtherMemory |= O.Function == B.Function && O.Base != B.Base;
  }
  std::string Label = OtherKernel ? B.Function + ":" + B.Name : B.Name;
  if (OtherMemory)
    Label += fmt::format("@{:#x}", B.Base);
  return Label;
}

uint64_t TraceCensus::uninstrumentedLaunches() const {
  uint64_t Launches = 0;
  for (const RunInfo &R : Runs)
    Launches += R.UninstrumentedLaunches;
  return Launches;
}

bool TraceCensus::incomplete() const {
  return anyLoss() || !Untraced.empty() || uninstrumentedLaunches() ||
         !UninstrumentedCalls.empty() || RunRecordMissing;
}

/// ": the program exited with status 0 without running an instrumented
/// kernel", from the run records, or "".
static std::string whyNoWorkgroup(const TraceCensus &C) {
  if (C.Runs.empty())
    return "";
  std::string Text = fmt::format(": the program {} without running an "
                                 "instrumented kernel",
                                 C.Runs.back().endText());
  if (uint64_t Launches = C.uninstrumentedLaunches())
    Text += fmt::format(" ({} launch{} of kernels that are not "
                        "instrumented)",
                        Launches, Launches == 1 ? "" : "es");
  return Text;
}

std::string TraceCensus::nothingToAnalyse(StringRef FilterText) const {
  if (FileBytes == 0)
    return "the file is empty (0 bytes): the program wrote no trace";
  if (RingChunks == 0) {
    if (!Runs.empty())
      return "no workgroup ran" + whyNoWorkgroup(*this);
    return fmt::format("no workgroup ran: the file holds metadata only ({} "
                       "chunk{}){}",
                       Chunks, Chunks == 1 ? "" : "s",
                       RunRecordMissing ? " and was cut short" : "");
  }
  if (Invocations == 0) {
    if (anyLoss())
      return fmt::format("no workgroup record survived: {} bytes of {} "
                         "ring{} were overwritten",
                         bytesLost(), Rings.size(),
                         Rings.size() == 1 ? "" : "s");
    return fmt::format("no workgroup ran: no workgroup record in {} ring "
                       "chunk{}{}",
                       RingChunks, RingChunks == 1 ? "" : "s",
                       whyNoWorkgroup(*this));
  }
  if (SelectedInvocations == 0)
    return fmt::format("no workgroup matches {} (of {} in the file)",
                       FilterText.str(), Invocations);
  return {};
}

static std::string siteName(const SiteCensus &S) {
  std::string Text = fmt::format("site {} ({}", S.Site, S.Function);
  if (!S.Location.empty())
    Text += " at " + S.Location;
  if (S.Direct)
    Text += ", direct calls";
  return Text + ")";
}

namespace {
/// Kernels whose sites have no surviving workgroup, and why.
struct KernelStatus {
  uint64_t Workgroups = 0;
  uint64_t Lost = 0;
};
} // namespace

static std::map<std::string, KernelStatus> kernels(const TraceCensus &C) {
  std::map<std::string, KernelStatus> K;
  for (const SiteCensus &S : C.Sites) {
    if (S.InstantiatedTemplate && !S.Workgroups && !S.WorkgroupsLost)
      continue;
    KernelStatus &Status = K[S.Function];
    Status.Workgroups += S.Workgroups;
    Status.Lost += S.WorkgroupsLost;
  }
  return K;
}

static std::string ringName(const RingLoss &R) {
  if (R.FromTrailer)
    return fmt::format("ring {} (chunk {} at {:#x})", R.RingId, R.Chunk,
                       R.FileOffset);
  return fmt::format("ring of chunk {} at {:#x}", R.Chunk, R.FileOffset);
}

std::string runText(const TraceCensus &C) {
  std::string Out;
  for (size_t I = 0; I < C.Runs.size(); ++I)
    Out += fmt::format("run{}: {}; {} workgroup{} ran instrumented\n",
                       C.Runs.size() > 1 ? fmt::format(" {}", I + 1) : "",
                       C.Runs[I].endText(), C.Runs[I].Workgroups,
                       C.Runs[I].Workgroups == 1 ? "" : "s");
  if (C.RunRecordMissing)
    Out += "run: not recorded: the file ends before its run record, so it "
           "was cut short (a copy interrupted, a full disk) or the program "
           "was killed outright (SIGKILL)\n";
  return Out;
}

json::Value runJson(const TraceCensus &C) {
  if (C.Runs.empty() && !C.RunRecordMissing)
    return nullptr;
  json::Array Records;
  for (const RunInfo &R : C.Runs)
    Records.push_back(R.json());
  return json::Object{{"records", std::move(Records)},
                      {"cut_short", C.RunRecordMissing}};
}

uint64_t TraceCensus::unselected() const {
  uint64_t Total = 0;
  for (const auto &[Filter, Count] : Unselected)
    Total += Count;
  return Total;
}

std::string TraceCensus::filterName(uint64_t Index) const {
  if (Index < Filters.size())
    return fmt::format("WGTRACE_FILTER '{}'", Filters[Index]);
  return fmt::format("WGTRACE_FILTER #{} (the metadata names {})", Index,
                     Filters.size());
}

std::string unselectedText(const TraceCensus &C) {
  const uint64_t Total = C.unselected();
  if (!Total)
    return {};
  std::string By;
  if (C.Unselected.size() == 1)
    By = C.filterName(C.Unselected.begin()->first);
  else
    for (const auto &[Filter, Count] : C.Unselected)
      By += fmt::format("{}{} {}", By.empty() ? "" : ", ", Count,
                        C.filterName(Filter));
  return fmt::format("{} of {} workgroup{} not selected by {} (their "
                     "WORKGROUP records only)\n",
                     Total, C.SelectedInvocations,
                     C.SelectedInvocations == 1 ? "" : "s", By);
}

json::Value selectionJson(const TraceCensus *C) {
  if (!C)
    return nullptr;
  json::Array By;
  for (const auto &[Filter, Count] : C->Unselected)
    By.push_back(json::Object{{"filter", Filter < C->Filters.size()
                                             ? json::Value(C->Filters[Filter])
                                             : json::Value(nullptr)},
                              {"workgroups", Count}});
  return json::Object{
      {"workgroups_ran", C->SelectedInvocations},
      {"workgroups_selected", C->SelectedInvocations - C->unselected()},
      {"not_selected_by", std::move(By)}};
}

std::string runHeader(const TraceCensus *C) {
  std::string Text = C ? runText(*C) + unselectedText(*C) : "";
  return Text.empty() ? Text : Text + "\n";
}

json::Value runJson(const TraceCensus *C) {
  return C ? runJson(*C) : json::Value(nullptr);
}

std::string uninstrumentedText(const TraceCensus &C) {
  uint64_t Launches = C.uninstrumentedLaunches();
  if (!Launches)
    return {};
  std::string Out = fmt::format(
      "{} launch{} of kernels that are not instrumented (their workgroups "
      "are in no count; rewrite the sources that define or launch them):\n",
      Launches, Launches == 1 ? "" : "es");
  uint64_t Listed = 0;
  for (const RunInfo &R : C.Runs)
    for (const UninstrumentedLaunch &L : R.Uninstrumented) {
      Listed += L.Launches;
      Out += fmt::format("  {}:{}: {}: {} launch{}, {} workgroup{}\n",
                         L.File.empty() ? "(unknown file)" : L.File, L.Line,
                         L.Kernel, L.Launches, L.Launches == 1 ? "" : "es",
                         L.Workgroups, L.Workgroups == 1 ? "" : "s");
    }
  if (Launches > Listed)
    Out += fmt::format("  ... {} more, at places the run record could not "
                       "list\n",
                       Launches - Listed);
  return Out;
}

std::string lossText(const TraceCensus &C, bool AllSites) {
  std::string Out;
  auto It = std::back_inserter(Out);
  if (C.anyLoss()) {
    uint64_t Recorded = 0;
    for (const RingLoss &R : C.Rings)
      Recorded += R.BytesRecorded;
    fmt::format_to(It,
                   "lost: {} ring{} wrapped and lost {} of {} bytes "
                   "recorded\n",
                   C.Rings.size(), C.Rings.size() == 1 ? "" : "s",
                   C.bytesLost(), Recorded);
    for (const RingLoss &R : C.Rings) {
      fmt::format_to(It, "  {}: {} of {} bytes", ringName(R), R.BytesLost,
                     R.BytesRecorded);
      if (R.RecordsLost)
        fmt::format_to(It, ", {} records", *R.RecordsLost);
      if (R.WorkgroupsLost)
        fmt::format_to(It, ", {} workgroups", *R.WorkgroupsLost);
      fmt::format_to(It, " overwritten");
      if (!R.FromTrailer)
        fmt::format_to(It, " (records and workgroups lost unknown: the "
                           "file has no ring trailer)");
      if (R.Flags & format::kTrailerCrash)
        fmt::format_to(It, "; written by the crash handler");
      fmt::format_to(It, "\n");
      for (const format::LostSite &L : R.Sites) {
        StringRef Function =
            R.Meta && L.DispatchId < R.Meta->SiteFunctions.size()
                ? R.Meta->siteFunction(L.DispatchId).nameOr("(null)")
                : StringRef("(unknown site)");
        fmt::format_to(It, "    site {} ({}): {} workgroup{} lost\n",
                       L.DispatchId, Function.str(), L.Workgroups,
                       L.Workgroups == 1 ? "" : "s");
      }
      if (R.Flags & format::kTrailerLostSitesTruncated)
        fmt::format_to(It, "    (more sites lost workgroups than the "
                           "trailer lists)\n");
    }
  }
  std::string Sites;
  for (const SiteCensus &S : C.Sites) {
    if (S.Workgroups)
      continue;
    if (S.WorkgroupsLost)
      Sites += fmt::format("  {}: {} workgroup{} lost (overwritten), none "
                           "survived\n",
                           siteName(S), S.WorkgroupsLost,
                           S.WorkgroupsLost == 1 ? "" : "s");
    else if (C.LossUncounted)
      Sites += fmt::format("  {}: no surviving workgroup record (rings "
                           "wrapped: may have been overwritten)\n",
                           siteName(S));
    // A kernel's direct-call site is a bucket, not a launch written in the
    // source: that nothing called the kernel directly is no news. Where
    // the reading stopped at damage, none read is not none recorded.
    else if (AllSites && !S.Direct)
      Sites += fmt::format("  {}: {}\n", siteName(S),
                           C.Damage.empty()
                               ? "no workgroup recorded"
                               : "no surviving workgroup record (the file is "
                                 "damaged: may have been in what could not "
                                 "be read)");
  }
  if (!Sites.empty())
    Out += "dispatch sites without a surviving workgroup record:\n" + Sites;
  std::string Kernels;
  for (const auto &[Name, K] : kernels(C)) {
    if (K.Workgroups)
      continue;
    if (K.Lost)
      Kernels += fmt::format("  {}: {} workgroup{} lost, none survived\n", Name,
                             K.Lost, K.Lost == 1 ? "" : "s");
    else if (C.LossUncounted)
      Kernels += fmt::format("  {}: no surviving workgroup record (may have "
                             "been overwritten)\n",
                             Name);
    else if (AllSites)
      Kernels += fmt::format("  {}: {}\n", Name,
                             C.Damage.empty()
                                 ? "no workgroup recorded"
                                 : "no surviving workgroup record (may have "
                                   "been in the damaged part of the file)");
  }
  if (!Kernels.empty())
    Out += "kernels without a surviving workgroup record:\n" + Kernels;
  return Out;
}

/// Whether a site or kernel without a surviving workgroup record may have
/// had some that the file does not show: a ring without trailer wrapped,
/// or the reading stopped at damage.
static bool maybeLost(const TraceCensus &C) {
  return C.LossUncounted || !C.Damage.empty();
}

json::Object lossJson(const TraceCensus &C) {
  json::Array Rings;
  for (const RingLoss &R : C.Rings) {
    json::Array Sites;
    for (const format::LostSite &L : R.Sites)
      Sites.push_back(
          json::Object{{"site", L.DispatchId}, {"workgroups", L.Workgroups}});
    json::Object O{{"chunk", R.Chunk},
                   {"file_offset", R.FileOffset},
                   {"from_trailer", R.FromTrailer},
                   {"bytes_recorded", R.BytesRecorded},
                   {"bytes_lost", R.BytesLost},
                   {"records_lost", R.RecordsLost ? json::Value(*R.RecordsLost)
                                                  : json::Value(nullptr)},
                   {"workgroups_lost", R.WorkgroupsLost
                                           ? json::Value(*R.WorkgroupsLost)
                                           : json::Value(nullptr)},
                   {"sites", std::move(Sites)}};
    if (R.FromTrailer) {
      O["ring"] = R.RingId;
      O["crash"] = bool(R.Flags & format::kTrailerCrash);
      O["sites_truncated"] = bool(R.Flags & format::kTrailerLostSitesTruncated);
    }
    Rings.push_back(std::move(O));
  }
  json::Array Sites;
  for (const SiteCensus &S : C.Sites) {
    if (S.Workgroups)
      continue;
    Sites.push_back(json::Object{{"site", S.Site},
                                 {"function", S.Function},
                                 {"location", S.Location},
                                 {"direct", S.Direct},
                                 {"workgroups_lost", S.WorkgroupsLost},
                                 {"status", S.WorkgroupsLost ? "lost"
                                            : maybeLost(C)   ? "maybe lost"
                                                           : "not recorded"}});
  }
  json::Array Kernels;
  for (const auto &[Name, K] : kernels(C))
    if (!K.Workgroups)
      Kernels.push_back(
          json::Object{{"function", Name},
                       {"workgroups_lost", K.Lost},
                       {"status", K.Lost         ? "lost"
                                  : maybeLost(C) ? "maybe lost"
                                                 : "not recorded"}});
  json::Array Calls;
  for (const UninstrumentedCall &U : C.UninstrumentedCalls) {
    json::Object O{{"calls", U.Calls}};
    if (U.Call) {
      O["file"] = U.Call->Where.File;
      O["line"] = U.Call->Where.Line;
      O["column"] = U.Call->Where.Column;
      O["scope"] = U.Call->Scope;
      O["text"] = U.Call->Text;
    }
    Calls.push_back(std::move(O));
  }
  json::Array Uninstrumented;
  for (const RunInfo &R : C.Runs)
    for (const UninstrumentedLaunch &L : R.Uninstrumented)
      Uninstrumented.push_back(
          json::Object{{"file", L.File},
                       {"line", L.Line},
                       {"kernel", L.Kernel},
                       {"site", L.DispatchId == format::kNoDispatchSite
                                    ? json::Value(nullptr)
                                    : json::Value(L.DispatchId)},
                       {"launches", L.Launches},
                       {"workgroups", L.Workgroups}});
  return json::Object{{"bytes_lost", C.bytesLost()},
                      {"rings", std::move(Rings)},
                      {"sites_without_records", std::move(Sites)},
                      {"kernels_without_records", std::move(Kernels)},
                      {"untraced_accesses", uint64_t(C.Untraced.size())},
                      {"uninstrumented_calls", std::move(Calls)},
                      {"uninstrumented_launches", C.uninstrumentedLaunches()},
                      {"uninstrumented", std::move(Uninstrumented)},
                      {"cut_short", C.RunRecordMissing}};
}

std::string censusText(const TraceCensus *C, bool AllSites) {
  if (!C)
    return {};
  std::string Out;
  std::string Loss = lossText(*C, AllSites);
  if (!Loss.empty())
    Out += "\n" + Loss;
  std::string Untraced = untracedText(*C);
  if (!Untraced.empty())
    Out += "\n" + Untraced;
  std::string Calls = uninstrumentedCallsText(*C);
  if (!Calls.empty())
    Out += "\n" + Calls;
  std::string Uninstrumented = uninstrumentedText(*C);
  if (!Uninstrumented.empty())
    Out += "\n" + Uninstrumented;
  return Out;
}

json::Value censusJson(const TraceCensus *C) {
  if (!C)
    return nullptr;
  return lossJson(*C);
}

std::string untracedText(const TraceCensus &C, size_t MaxListed) {
  if (C.Untraced.empty())
    return {};
  std::string Out = fmt::format(
      "{} access{} in the source {} not traced (the rewriter could not wrap "
      "{}; their loads and stores are missing from every count):\n",
      C.Untraced.size(), C.Untraced.size() == 1 ? "" : "es",
      C.Untraced.size() == 1 ? "is" : "are",
      C.Untraced.size() == 1 ? "it" : "them");
  for (size_t I = 0; I < C.Untraced.size() && I < MaxListed; ++I) {
    const UntracedAccess &U = C.Untraced[I];
    Out +=
        fmt::format("  {}: {}{}: {}\n",
                    U.Where.known() ? U.Where.str(true) : "(unknown place)",
                    U.Text, U.Scope.empty() ? "" : " in " + U.Scope, U.Reason);
  }
  if (C.Untraced.size() > MaxListed)
    Out += fmt::format("  ... {} more\n", C.Untraced.size() - MaxListed);
  return Out;
}

std::string uninstrumentedCallsText(const TraceCensus &C) {
  if (C.UninstrumentedCalls.empty())
    return {};
  uint64_t Total = 0;
  for (const UninstrumentedCall &U : C.UninstrumentedCalls)
    Total += U.Calls;
  std::string Out = fmt::format(
      "{} call{} through pointers or into other files ran code wgtrace did "
      "not instrument, in whole or in part (a function of a file that was "
      "not rewritten or was rewritten alone, without --whole-target; one the "
      "rewriter could not copy; or one of another file with code the "
      "rewriter could not wrap, which it does not warn about where no "
      "kernel of that file calls it): {} accesses are missing from every "
      "count:\n",
      Total, Total == 1 ? "" : "s", Total == 1 ? "its" : "their");
  for (const UninstrumentedCall &U : C.UninstrumentedCalls) {
    if (!U.Call) {
      Out += fmt::format("  {} x a call the metadata does not list\n", U.Calls);
      continue;
    }
    Out += fmt::format(
        "  {} x {}: {}{}\n", U.Calls,
        U.Call->Where.known() ? U.Call->Where.str(true) : "(unknown place)",
        U.Call->Text, U.Call->Scope.empty() ? "" : " in " + U.Call->Scope);
  }
  return Out;
}

} // namespace wgtrace::viewer
