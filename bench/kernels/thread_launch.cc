// A program that starts a thread per launch: 200 launches of a 64-workgroup
// kernel (each workgroup loads and stores --size floats: 400 MiB of records
// at the default 1024), each launch from a new std::thread
// (--threads=per-launch) or all from one long-lived thread (--threads=one).
#include "harness.h"

#include <cstring>
#include <thread>
#include <vector>

WGTRACE_DISPATCH void scale(const wgtrace::Workgroup &wg, float *data,
                            uint32_t n) {
  float *row = data + size_t(wg.id[0]) * n;
  for (uint32_t i = 0; i < n; ++i)
    row[i] = row[i] * 0.5f + 1.0f;
}

int main(int argc, char **argv) {
  bool per_launch = true;
  int launches = 200;
  std::vector<char *> rest;
  for (int i = 0; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads=one"))
      per_launch = false;
    else if (!std::strcmp(argv[i], "--threads=per-launch"))
      per_launch = true;
    else if (!std::strncmp(argv[i], "--launches=", 11))
      launches = std::atoi(argv[i] + 11);
    else
      rest.push_back(argv[i]);
  }
  bench::Options O = bench::parse(int(rest.size()), rest.data(), 1024);
  const uint32_t workgroups = 64, n = uint32_t(O.Size);
  std::vector<float> data(size_t(workgroups) * n, 1.0f);
  auto launch = [&] {
    wgtrace::dispatch(scale, wgtrace::Grid{workgroups, 1, 1}, data.data(), n);
  };
  return bench::run(
      O,
      [&] {
        if (per_launch) {
          for (int l = 0; l < launches; ++l)
            std::thread(launch).join();
        } else {
          std::thread([&] {
            for (int l = 0; l < launches; ++l)
              launch();
          }).join();
        }
      },
      [&] {
        double s = 0;
        for (float v : data)
          s += v;
        return s;
      });
}
