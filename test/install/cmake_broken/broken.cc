// A kernel with an error on line 7: the build must fail and name this
// file and line, not the rewritten copy in the build tree.
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void broken(const wgtrace::Workgroup &wg, int *data) {
  data[wg.id[0]] = 1;
  data[wg.id[0]] += undeclared_value;
}

int main() { return 0; }
