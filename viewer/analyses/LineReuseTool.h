//===- LineReuseTool.h - Reuse distances of the lines workgroups touch -*- C++
//-*-===//
//
// The reuse-distance histogram of `cache` (64-byte lines, every line of
// every access of a workgroup whose workgroup record was seen, in record
// order, no cold start per workgroup) as a tool of its own: the HTML
// report counts it in the thread that reads the file for its races and
// per-line sections, not in the thread that lays out the page.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_LINEREUSETOOL_H
#define WGTRACE_VIEWER_LINEREUSETOOL_H

#include "analyses/AnalysisTool.h"
#include "analyses/InvocationOwners.h"
#include "simulator/ReuseDistance.h"

namespace wgtrace::viewer {

class LineReuseTool : public AnalysisTool {
public:
  /// 64-byte lines, as `cache`'s default first level.
  static constexpr unsigned LineShift = 6;

  void record(const Record &R) override {
    if (!R.Workgroup)
      return; // --iree-compat on a wrapped ring: owner unknown
    if (R.Tag == format::Tag::Workgroup) {
      Owners.workgroup(R.Workgroup->Invocation, [] { return 0u; });
      return;
    }
    if ((R.Tag == format::Tag::MemoryLoad ||
         R.Tag == format::Tag::MemoryStore) &&
        Owners.ownerOf(R.Workgroup->Invocation))
      Reuse.accessBytes(R.Memory.Address, R.Memory.Length, LineShift);
  }

  const ReuseHistogram &histogram() const { return Reuse; }

private:
  InvocationOwners Owners;
  ReuseHistogram Reuse;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_LINEREUSETOOL_H
