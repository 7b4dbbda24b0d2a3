//===- trace_control.cc - Programs that manage their trace themselves -----===//

#include "config.h"
#include "thread_ring.h"
#include "trace_writer.h"

#include "wgtrace/wgtrace.h"

namespace wgtrace {

static bool refuseInStreamMode(std::string *Error) {
  if (runtime::config().TraceMode != runtime::Mode::Stream)
    return false;
  if (Error)
    *Error = "WGTRACE_MODE=stream writes its trace to WGTRACE_FILE as it "
             "goes; flushTrace and snapshotTrace need ring mode";
  return true;
}

bool flushTrace(const std::string &Path, std::string *Error) {
  std::string Ignored;
  if (refuseInStreamMode(Error ? Error : &Ignored))
    return false;
  return runtime::writeTrace(Path, /*Report=*/false, Error ? Error : &Ignored);
}

std::vector<uint8_t> snapshotTrace() {
  if (refuseInStreamMode(nullptr))
    return {};
  return runtime::snapshotTrace();
}

void resetTrace() {
  // Stream mode: what was recorded is already in the file.
  if (runtime::config().TraceMode == runtime::Mode::Stream)
    return;
  runtime::forEachRing([](runtime::ThreadRing &TR) { TR.forget(); });
}

} // namespace wgtrace
