//===- config.cc - Runtime settings from the environment ------------------===//

#include "config.h"

#include "compressed_chunk_sink.h"

#include "trace_path.h"
#include "workgroup_filter.h"

#include "wgtrace/instrument.h"

#include "wgtrace/format.h"
#include "wgtrace/settings_syntax.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace wgtrace::runtime {

std::optional<uint64_t> parseBufferSize(std::string_view Text,
                                        std::string *Error) {
  std::optional<uint64_t> Value = settings::parseSize(Text);
  if (!Value) {
    *Error = "is not a size";
    return std::nullopt;
  }
  if (!format::isPowerOfTwo(*Value)) {
    *Error = "is not a power of two";
    return std::nullopt;
  }
  if (*Value < 4096) {
    *Error = "is smaller than 4kib";
    return std::nullopt;
  }
  if (*Value > format::kMaxWorkgroupOffset) {
    *Error = "is larger than the format's 40-bit offsets allow";
    return std::nullopt;
  }
  return Value;
}

std::optional<uint32_t> parseCount(std::string_view Text) {
  std::optional<uint64_t> Value = settings::parseCount(Text, 1, kMaxWorkers);
  if (!Value)
    return std::nullopt;
  return static_cast<uint32_t>(*Value);
}

void fatal(const std::string &Message) {
  std::fprintf(stderr, "wgtrace: error: %s\n", Message.c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

/// A switch (settings_syntax.h); anything else is an error naming the variable.
static bool readSwitch(const char *Name, bool Default) {
  const char *Value = std::getenv(Name);
  if (!Value)
    return Default;
  if (std::optional<bool> On = settings::parseSwitch(Value))
    return *On;
  fatal(fmt::format("{}='{}' is not a switch; expected {}", Name, Value,
                    settings::kSwitchSpelling));
}

namespace {
/// Build-time defaults, set by BuildSettings before config() is first read.
struct Defaults {
  const char *BufferSize = nullptr;
  int Timing = -1;
  const char *Filter = nullptr;
  const char *Compress = nullptr;
  bool Read = false;
};
Defaults &defaults() {
  static Defaults D;
  return D;
}
} // namespace

static Config readConfig() {
  Config C;
  const Defaults &D = defaults();
  const char *Size = std::getenv("WGTRACE_BUFFER_SIZE");
  if (!Size)
    Size = D.BufferSize;
  if (Size) {
    std::string Why;
    std::optional<uint64_t> Parsed = parseBufferSize(Size, &Why);
    if (!Parsed)
      fatal(fmt::format("WGTRACE_BUFFER_SIZE='{}' {}; expected a power of two "
                        "of at least 4k, as {}",
                        Size, Why, settings::kSizeSpelling));
    C.BufferSize = *Parsed;
  }
  unsigned Cores = std::thread::hardware_concurrency();
  C.Workers = Cores ? Cores : 1;
  if (const char *Workers = std::getenv("WGTRACE_WORKERS")) {
    std::optional<uint32_t> Parsed = parseCount(Workers);
    if (!Parsed)
      fatal(fmt::format("WGTRACE_WORKERS='{}' is not a worker count; "
                        "expected a whole number from 1 to {}",
                        Workers, kMaxWorkers));
    C.Workers = *Parsed;
  }
  C.RecordMemory = readSwitch("WGTRACE_MEMORY", true);
  C.Quiet = readSwitch("WGTRACE_QUIET", false);
  const char *Filter = std::getenv("WGTRACE_FILTER");
  const char *FilterSource = "WGTRACE_FILTER";
  if (!Filter) {
    Filter = D.Filter;
    FilterSource = "wgtrace_instrument_target FILTER";
  }
  if (Filter) {
    std::string Why = filterProblem(Filter);
    if (!Why.empty())
      fatal(fmt::format("{}='{}': {}", FilterSource, Filter, Why));
    C.FilterSpec = Filter;
  }
  if (const char *File = std::getenv("WGTRACE_FILE")) {
    std::string Problem = tracePathProblem(File);
    if (!Problem.empty())
      fatal(fmt::format("WGTRACE_FILE='{}' {}", File, Problem));
  }
  C.Timing = readSwitch("WGTRACE_TIMING", D.Timing == 1);
  const char *Compress = std::getenv("WGTRACE_COMPRESS");
  const char *CompressSource = "WGTRACE_COMPRESS";
  if (!Compress) {
    Compress = D.Compress;
    CompressSource = "wgtrace_instrument_target COMPRESS";
  }
  if (Compress) {
    std::optional<int> Level = settings::parseCompression(Compress);
    if (!Level)
      fatal(fmt::format("{}='{}' is not a compression; expected {}",
                        CompressSource, Compress,
                        settings::kCompressionSpelling));
    if (*Level && !compressionBuiltIn())
      fatal(fmt::format("{}='{}': this wgtrace runtime was built without "
                        "libzstd (WGTRACE_ZSTD=OFF or libzstd-dev missing)",
                        CompressSource, Compress));
    C.CompressLevel = *Level;
  }
  if (const char *ModeName = std::getenv("WGTRACE_MODE")) {
    std::string_view M = ModeName;
    if (M == "ring")
      C.TraceMode = Mode::Ring;
    else if (M == "stream")
      C.TraceMode = Mode::Stream;
    else
      fatal(fmt::format("WGTRACE_MODE='{}' is not a mode; expected ring or "
                        "stream",
                        ModeName));
  }
  if (const char *Device = std::getenv("WGTRACE_DEVICE")) {
    std::string_view D = Device;
    if (D != "local-sync" && D != "local-task")
      fatal(fmt::format("WGTRACE_DEVICE='{}' is not a device; expected "
                        "local-sync or local-task",
                        Device));
    C.LocalTask = D == "local-task";
  }
  return C;
}

const Config &config() {
  // Leaked: the exit handler that writes the trace reads it after static
  // destructors have run.
  static const Config *C = [] {
    defaults().Read = true;
    return new Config(readConfig());
  }();
  return *C;
}

} // namespace wgtrace::runtime

namespace wgtrace::detail {

BuildSettings::BuildSettings(const char *BufferSize, bool Timing)
    : BuildSettings(BufferSize, Timing, nullptr) {}

BuildSettings::BuildSettings(const char *BufferSize, bool Timing,
                             const char *Filter)
    : BuildSettings(BufferSize, Timing, Filter, nullptr) {}

BuildSettings::BuildSettings(const char *BufferSize, bool Timing,
                             const char *Filter, const char *Compress) {
  runtime::Defaults &D = runtime::defaults();
  if (D.Read)
    runtime::fatal("build settings registered after the runtime read its "
                   "settings; define BuildSettings at namespace scope");
  D.BufferSize = BufferSize;
  D.Timing = Timing;
  D.Filter = Filter;
  D.Compress = Compress;
}

} // namespace wgtrace::detail
