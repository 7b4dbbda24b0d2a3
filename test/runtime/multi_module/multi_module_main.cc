// An instrumented executable linking an instrumented shared library
// (module_a) and static library (module_b): one runtime, one numbering of
// functions and sites, one trace.
#include <wgtrace/instrument.h>

namespace {
const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {
    {"kernel_main", "test", "(wg, data)", "void kernel_main(...)"}};
const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
    {"kernel_a", "multi_module_main.cc:25"}};
::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 1, wgtrace_sites_,
                                          1);
} // namespace

void kernel_a(const wgtrace::Workgroup &wg, int *data);
void run_a(int *data);
void run_b(int *data);

static void kernel_main(const wgtrace::Workgroup &wg, int *data) {
  WGTRACE_WORKGROUP(wg, 0);
  WGTRACE_STORE(data[wg.id[0]]) = 2;
}

int main() {
  int data[4] = {};
  run_a(data);
  run_b(data);
  // A site in this module launching a kernel of the shared library.
  wgtrace::dispatch(WGTRACE_SITE(0), kernel_a, wgtrace::Grid{1, 1, 1}, data);
  wgtrace::Workgroup wg{};
  kernel_main(wg, data);
  return data[0] == 2 ? 0 : 1;
}
