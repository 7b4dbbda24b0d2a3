//===- command_line.cc - Flags every instrumented sample accepts ----------===//

#include "wgtrace/wgtrace.h"

#include <cstdio>
#include <cstring>
#include <string_view>

namespace wgtrace {

bool parseCommonFlags(int &Argc, char **Argv) {
  int Out = 1;
  for (int I = 1; I < Argc; ++I) {
    std::string_view Arg = Argv[I];
    if (Arg.substr(0, 9) == "--device=") {
      Device D;
      if (!parseDevice(Arg.substr(9), D)) {
        std::fprintf(stderr,
                     "%s: error: --device='%s' is not a device; expected "
                     "local-sync or local-task\n",
                     Argv[0], Argv[I] + 9);
        return false;
      }
      setDevice(D);
    } else if (Arg.substr(0, 18) == "--instrument_file=") {
      setTraceFile(std::string(Arg.substr(18)));
    } else {
      Argv[Out++] = Argv[I];
    }
  }
  Argc = Out;
  Argv[Argc] = nullptr;
  return true;
}

} // namespace wgtrace
