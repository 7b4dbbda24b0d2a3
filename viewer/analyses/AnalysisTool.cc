//===- AnalysisTool.cc ----------------------------------------------------===//

#include "analyses/AnalysisTool.h"

namespace wgtrace::viewer {

// Anchors the vtable in one object file.
AnalysisTool::~AnalysisTool() = default;

} // namespace wgtrace::viewer
