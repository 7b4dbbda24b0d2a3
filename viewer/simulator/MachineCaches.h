//===- MachineCaches.h - The levels to model, and where they come from -*- C++
//-*-===//
//
// As cachegrind does, the default hierarchy is the running machine's: its
// level 1 data cache (D1), its level 2 cache (L2) and its last level (LL),
// read from Linux's sysfs (cachegrind reads the same through cpuid). When
// they cannot be read, cachegrind's defaults (D1 64 KiB, 2 ways; LL 256 KiB,
// 8 ways; 64-byte lines), with a note saying so. A last level whose set
// count is not a power of two (this machine's 105 MiB, 15-way L3) is
// adjusted as cachegrind's maybe_tweak_LLc() does: the sets rounded down to
// a power of two, the ways raised to keep the size, with a note.
//
// Each level can be given as SIZE,WAYS,LINE (--l1 32k,8,64; the size in the
// syntax of settings_syntax.h), and L2 can be left out ("none").
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_MACHINECACHES_H
#define WGTRACE_VIEWER_MACHINECACHES_H

#include "simulator/CacheHierarchy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace wgtrace::viewer {

/// Where Linux lists the caches of the first processor.
inline constexpr llvm::StringLiteral kSysfsCacheDir =
    "/sys/devices/system/cpu/cpu0/cache";

struct MachineCaches {
  std::optional<CacheGeometry> D1, L2, LL;
  /// What was read, adjusted or assumed, for the report; "" when the levels
  /// are the machine's as they are.
  std::string Note;
};

/// The data caches listed under \p Dir (index*/level, type, size,
/// ways_of_associativity, coherency_line_size), or cachegrind's defaults
/// (without L2) when D1 or the last level cannot be read.
MachineCaches readMachineCaches(llvm::StringRef Dir = kSysfsCacheDir);

/// cachegrind's maybe_tweak_LLc(): sets rounded down to a power of two,
/// ways raised to keep (nearly) the size. Unchanged when already valid.
CacheGeometry tweakLastLevel(const CacheGeometry &G);

/// SIZE,WAYS,LINE (e.g. 32k,8,64): a valid geometry (line size and set
/// count powers of two), or an error saying what is wrong.
llvm::Expected<CacheGeometry> parseCacheSpec(llvm::StringRef Spec);

/// The levels to model: the machine's (\p SysfsDir), each replaced by its
/// spec when given (\p L2 "none": D1 and LL only). \p Note: what the report
/// says of them ("" when every level was given). Errors name the level:
/// "l1 '32kb,8,64': ...".
llvm::Expected<std::vector<CacheLevel>>
chooseCacheLevels(const std::optional<std::string> &L1,
                  const std::optional<std::string> &L2,
                  const std::optional<std::string> &LL, std::string &Note,
                  llvm::StringRef SysfsDir = kSysfsCacheDir);

/// "SIZE,WAYS,LINE" as parseCacheSpec() reads it, size with a k/m suffix
/// when exact.
std::string cacheSpecText(const CacheGeometry &G);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_MACHINECACHES_H
