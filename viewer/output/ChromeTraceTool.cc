//===- ChromeTraceTool.cc -------------------------------------------------===//

#include "output/ChromeTraceTool.h"

#include "reader/Metadata.h"

#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <set>

using namespace llvm;

namespace wgtrace::viewer {

void ChromeTraceTool::beginFile(StringRef Name) {
  FileNames.push_back(Name.str());
  ByInvocation.clear();
  NextRecord.clear();
}

void ChromeTraceTool::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
  Chunk = Info.Where.Index;
}

void ChromeTraceTool::record(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  auto Known = ByInvocation.find(R.Workgroup->Invocation);
  if (R.Tag == format::Tag::Workgroup && Known == ByInvocation.end()) {
    const format::WorkgroupRecord &WG = R.Workgroup->Record;
    Slice S;
    S.File = FileNames.empty() ? 0 : uint32_t(FileNames.size() - 1);
    S.Site = WG.DispatchId;
    S.Function = Meta->siteFunction(WG.DispatchId).nameOr("(null)");
    S.Id = {WG.Id[0], WG.Id[1], WG.Id[2]};
    S.ProcessorId = WG.ProcessorId;
    S.BeginningLost = R.Workgroup->BeginningLost;
    S.FirstRecord = S.LastRecord = NextRecord[WG.ProcessorId]++;
    S.Chunk = Chunk;
    S.Offset = R.Offset;
    ByInvocation[R.Workgroup->Invocation] = Slices.size();
    Slices.push_back(S);
    return;
  }
  if (Known == ByInvocation.end())
    return; // a record of a workgroup this tool never saw begin
  Slice &S = Slices[Known->second];
  // Records of a workgroup all lie in its ring, after its WORKGROUP record
  // (or a copy): the track's counter is the one it started on.
  S.LastRecord = NextRecord[S.ProcessorId]++;
  S.Counts.count(R);
}

void ChromeTraceTool::timing(ArrayRef<WorkgroupTime> Times) {
  for (const WorkgroupTime &T : Times) {
    auto It = ByInvocation.find(T.Invocation);
    if (It == ByInvocation.end())
      continue; // filtered out
    Slice &S = Slices[It->second];
    S.Timed = true;
    S.StartNs = T.StartNs;
    S.EndNs = std::max(T.EndNs, T.StartNs);
  }
}

void ChromeTraceTool::census(const TraceCensus &C) {
  Losses.push_back(lossJson(C));
  Runs.push_back(runJson(C));
}

void ChromeTraceTool::finish() {
  if (++Finished < FileCount)
    return;
  write();
}

void ChromeTraceTool::write() {
  // Real times when any workgroup has them; workgroups without an entry
  // are then left out (their time is unknown), and counted.
  bool Timed = false;
  uint64_t Origin = UINT64_MAX;
  for (const Slice &S : Slices)
    if (S.Timed) {
      Timed = true;
      Origin = std::min(Origin, S.StartNs);
    }
  uint64_t Untimed = 0;
  std::set<std::pair<uint32_t, uint32_t>> Processors;
  json::OStream J(OS);
  J.object([&] {
    J.attributeArray("traceEvents", [&] {
      for (const Slice &S : Slices) {
        if (Timed && !S.Timed) {
          ++Untimed;
          continue;
        }
        Processors.insert({S.File, S.ProcessorId});
        J.object([&] {
          J.attribute("name", fmt::format("{} ({},{},{})", S.Function.str(),
                                          S.Id[0], S.Id[1], S.Id[2]));
          J.attribute("cat", "workgroup");
          J.attribute("ph", "X");
          J.attribute("pid", S.File + 1);
          J.attribute("tid", S.ProcessorId);
          if (Timed) {
            J.attribute("ts", double(S.StartNs - Origin) / 1000.0);
            J.attribute("dur", double(S.EndNs - S.StartNs) / 1000.0);
          } else {
            J.attribute("ts", S.FirstRecord);
            J.attribute("dur", S.LastRecord - S.FirstRecord + 1);
          }
          J.attributeObject("args", [&] {
            J.attribute("site", S.Site);
            J.attribute("workgroup",
                        fmt::format("{},{},{}", S.Id[0], S.Id[1], S.Id[2]));
            J.attribute("loads", S.Counts.Loads);
            J.attribute("stores", S.Counts.Stores);
            J.attribute("values", S.Counts.Values);
            J.attribute("prints", S.Counts.Prints);
            J.attribute("chunk", S.Chunk);
            J.attribute("ring_offset", S.Offset);
            J.attribute("beginning_lost", S.BeginningLost);
          });
        });
      }
      // Track names: one process per input file.
      for (size_t F = 0; F < std::max<size_t>(FileNames.size(), 1); ++F)
        J.object([&] {
          J.attribute("name", "process_name");
          J.attribute("ph", "M");
          J.attribute("pid", F + 1);
          J.attributeObject("args", [&] {
            J.attribute("name", FileNames.empty() ? std::string("wgtrace")
                                                  : "wgtrace " + FileNames[F]);
          });
        });
      for (const std::pair<uint32_t, uint32_t> &Track : Processors)
        J.object([&, F = Track.first, P = Track.second] {
          J.attribute("name", "thread_name");
          J.attribute("ph", "M");
          J.attribute("pid", F + 1);
          J.attribute("tid", P);
          J.attributeObject("args", [&] {
            J.attribute("name", fmt::format("processor {}", P));
          });
        });
    });
    J.attribute("displayTimeUnit", "ns");
    J.attributeObject("otherData", [&] {
      J.attribute("time_axis",
                  Timed ? "steady clock (timing chunks)"
                        : "record order: 1 us = 1 record of the processor");
      if (Untimed)
        J.attribute("workgroups_without_times", Untimed);
      if (Losses.size() == 1) {
        J.attribute("run", Runs[0]);
        J.attribute("loss", Losses[0]);
      } else if (!Losses.empty()) {
        J.attribute("run", json::Array(Runs));
        J.attribute("loss", json::Array(Losses));
      }
    });
  });
  OS << "\n";
  OS.flush();
}

} // namespace wgtrace::viewer
