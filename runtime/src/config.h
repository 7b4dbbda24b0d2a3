//===- config.h - Runtime settings from the environment -------------------===//

#ifndef WGTRACE_RUNTIME_CONFIG_H
#define WGTRACE_RUNTIME_CONFIG_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wgtrace::runtime {

/// Parses a buffer size: a power of two of at least 4 KiB, spelled as
/// settings::parseSize takes sizes ("16m", "16mib"). Returns an
/// explanation of what is wrong on failure.
std::optional<uint64_t> parseBufferSize(std::string_view Text,
                                        std::string *Error);

/// The most workers WGTRACE_WORKERS may ask for.
inline constexpr uint32_t kMaxWorkers = 999999;

/// Parses a count from 1 to kMaxWorkers (WGTRACE_WORKERS).
std::optional<uint32_t> parseCount(std::string_view Text);

enum class Mode : uint8_t {
  /// IREE's semantics: a fixed ring per thread that overwrites its oldest
  /// records when it wraps.
  Ring,
  /// Lossless: full buffers go to a writer thread that appends them to the
  /// file while kernels keep running.
  Stream,
};

struct Config {
  /// Bytes of each thread's ring: WGTRACE_BUFFER_SIZE, default 16 MiB.
  uint64_t BufferSize = uint64_t{16} << 20;
  /// Worker threads of local-task: WGTRACE_WORKERS, default the core count.
  uint32_t Workers = 1;
  /// WGTRACE_MEMORY=0 keeps only workgroup, value and print records.
  bool RecordMemory = true;
  /// WGTRACE_MODE: ring (default) or stream.
  Mode TraceMode = Mode::Ring;
  /// WGTRACE_TIMING=1 adds each workgroup's start and end times.
  bool Timing = false;
  /// WGTRACE_DEVICE=local-task (else local-sync).
  bool LocalTask = false;
  /// WGTRACE_FILTER (else wgtrace_instrument_target's FILTER): which
  /// workgroups record more than their WORKGROUP record; empty: all.
  std::string FilterSpec;
  /// WGTRACE_QUIET=1: no notes on stderr (a wrapped ring, a trace not
  /// asked for, what a filter selected); errors are always printed.
  bool Quiet = false;
  /// WGTRACE_COMPRESS (else wgtrace_instrument_target's COMPRESS): the
  /// zstd level ring chunks are compressed at, 0 for none (the default:
  /// IREE's format).
  int CompressLevel = 0;
};

/// The settings of this process, read from the environment once. A bad
/// value prints an error naming the variable and exits with status 2: a
/// trace made with settings the user did not ask for is worse than none.
const Config &config();

/// Prints "wgtrace: error: ..." and exits with status 2.
[[noreturn]] void fatal(const std::string &Message);

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_CONFIG_H
