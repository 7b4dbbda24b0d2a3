//===- DumpTool.cc --------------------------------------------------------===//

#include "DumpTool.h"

#include "ValueText.h"

#include <iterator>

namespace wgtrace::viewer {

// Exactly the rule IREE's tool prints (80 columns).
static constexpr char kBanner[] =
    "//===---------------------------------------------------------------"
    "-------===//\n";

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
  for (size_t I = 0; I < M.SiteFunctions.size(); ++I)
    fmt::format_to(It, "// dispatch site {}: {}\n", I,
                   M.siteFunction(I).nameOr("(null)"));
  fmt::format_to(It, "{}\n", kBanner);
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

void DumpTool::record(const Record &R) {
  if (!selected(R))
    return;
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
    formatValue(Buffer, uint8_t(R.Value.Type), R.Value.Bits,
                Options.IreeCompat);
    Buffer.push_back('\n');
    break;
  case format::Tag::MemoryLoad:
  case format::Tag::MemoryStore:
    fmt::format_to(It, "{:016X} | {} {:016X} {}\n", R.WorkgroupOffset,
                   R.Memory.IsStore ? "STORE" : "LOAD ", R.Memory.Address,
                   R.Memory.Length);
    break;
  default:
    break;
  }
  flushIfFull();
}

void DumpTool::flushIfFull() {
  if (Buffer.size() < (64u << 10))
    return;
  OS.write(Buffer.data(), Buffer.size());
  Buffer.clear();
}

void DumpTool::finish() {
  OS.write(Buffer.data(), Buffer.size());
  Buffer.clear();
  OS.flush();
}

} // namespace wgtrace::viewer
