//===- access_site_overflow.cc - More access sites than ids can name ------===//
//
// Written as wgtrace-rewrite writes instrumented code. A module of 70000
// access sites registers before the program's own, whose two sites then
// get ids past the 16 bits of a record: they wrap and name sites of the
// first module. trace_modes_test checks that the runtime says so and that
// the viewer attributes no access rather than the wrong one.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/instrument.h>

#include <vector>

namespace {
std::vector<::wgtrace::detail::AccessSiteInfo> manySites() {
  return std::vector<::wgtrace::detail::AccessSiteInfo>(
      70000, {"many.cc", 1, 1, 0, "many", "m[i]"});
}
// Defined before the program's module: registered first (definition order).
const std::vector<::wgtrace::detail::AccessSiteInfo> ManySites = manySites();
// The words registration fills: the base, then each site's bits.
std::vector<std::uint64_t> ManyBits(70001);
::wgtrace::detail::Module Many(nullptr, 0, nullptr, 0,
                               ::wgtrace::detail::ModuleExtras{
                                   ManySites.data(), ManySites.size(), nullptr,
                                   0, ManyBits.data()});

const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {
    {"touch", "test", "(wg, data)", "void touch(...)"}};
const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
    {"touch", "access_site_overflow.cc:1"}};
const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
    {"access_site_overflow.cc", 50, 34, 0, "touch", "data[0]"},
    {"access_site_overflow.cc", 50, 3, 1, "touch", "data[1]"}};
WGTRACE_ACCESS_SITE_TABLE(2)
::wgtrace::detail::Module
    wgtrace_module_(wgtrace_functions_, 1, wgtrace_sites_, 1,
                    WGTRACE_MODULE_EXTRAS(wgtrace_access_sites_, 2, nullptr, 0,
                                          wgtrace_access_site_bits_));
} // namespace

static void touch(const wgtrace::Workgroup &wg, float *data) {
  WGTRACE_WORKGROUP(wg, 0);
  WGTRACE_STORE_AT(2, data[1]) = WGTRACE_LOAD_AT(1, data[0]);
}

int main() {
  float data[2] = {1, 0};
  wgtrace::dispatch(WGTRACE_SITE(0), touch, wgtrace::Grid{1, 1, 1}, data);
  return data[1] == 1 ? 0 : 1;
}
