// Kernel of an instrumented shared library, written as wgtrace-rewrite writes
// it.
#include <wgtrace/instrument.h>

namespace {
const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {
    {"kernel_a", "test", "(wg, data)", "void kernel_a(...)"}};
const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
    {"kernel_a", "module_a.cc:12"}};
::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 1, wgtrace_sites_,
                                          1);
} // namespace

void kernel_a(const wgtrace::Workgroup &wg, int *data) {
  WGTRACE_WORKGROUP(wg, 0);
  WGTRACE_STORE(data[wg.id[0]]) = 1;
}

void run_a(int *data) {
  wgtrace::dispatch(WGTRACE_SITE(0), kernel_a, wgtrace::Grid{2, 1, 1}, data);
}
