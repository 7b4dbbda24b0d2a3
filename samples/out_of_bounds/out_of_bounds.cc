//===- out_of_bounds.cc - A kernel that writes past its buffer and dies ---===//
//
// Eight workgroups fill 1024 floats each of a buffer that ends right before
// an inaccessible guard page. The last workgroup is off by one tile and
// writes past the end: the process dies of SIGSEGV, and the trace written
// by wgtrace's crash handler still holds every workgroup before the crash
// and the faulting workgroup's stores up to the one that faulted.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <sys/mman.h>
#include <unistd.h>

constexpr int kPerWorkgroup = 1024;
constexpr int kWorkgroups = 8;

WGTRACE_DISPATCH void fill(const wgtrace::Workgroup &wg, float *out) {
  // The bug: the last workgroup starts one tile too far.
  int begin = int(wg.id[0]) * kPerWorkgroup;
  if (wg.id[0] == wg.count[0] - 1)
    begin += kPerWorkgroup;
  for (int i = begin; i < begin + kPerWorkgroup; ++i)
    out[i] = float(i);
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  size_t bytes = size_t(kPerWorkgroup) * kWorkgroups * sizeof(float);
  size_t mapped = (bytes + page - 1) / page * page;
  auto *base =
      static_cast<char *>(mmap(nullptr, mapped + page, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (base == MAP_FAILED)
    return 2;
  mprotect(base + mapped, page, PROT_NONE); // the guard page
  auto *out = reinterpret_cast<float *>(base + mapped - bytes);
  wgtrace::dispatch(fill, wgtrace::Grid{kWorkgroups, 1, 1}, out);
  std::printf("out_of_bounds: survived, which it should not\n");
  return 1;
}
