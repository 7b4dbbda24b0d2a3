//===- MachineCaches.cc ---------------------------------------------------===//

#include "simulator/MachineCaches.h"

#include "wgtrace/settings_syntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <map>

using namespace llvm;

namespace wgtrace::viewer {

static bool valid(const CacheGeometry &G) {
  return G.LineSize && isPowerOf2_64(G.LineSize) && G.Ways &&
         G.Size % (G.LineSize * G.Ways) == 0 && G.sets() &&
         isPowerOf2_64(G.sets());
}

static std::optional<std::string> readField(StringRef Dir, StringRef Name) {
  SmallString<128> Path(Dir);
  sys::path::append(Path, Name);
  // Read to the end as a stream: sysfs files claim a size (4096) larger
  // than what they hold, which a sized read would pad with zeros.
  ErrorOr<std::unique_ptr<MemoryBuffer>> File =
      MemoryBuffer::getFileAsStream(Path);
  if (!File)
    return std::nullopt;
  return (*File)->getBuffer().trim().str();
}

static std::optional<uint64_t> readNumber(StringRef Dir, StringRef Name) {
  std::optional<std::string> Text = readField(Dir, Name);
  uint64_t Value;
  if (!Text || StringRef(*Text).getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

CacheGeometry tweakLastLevel(const CacheGeometry &G) {
  if (!G.LineSize || !G.Ways || G.Size < G.LineSize * G.Ways)
    return G;
  uint64_t Sets = G.Size / (G.LineSize * G.Ways);
  CacheGeometry T = G;
  if (isPowerOf2_64(Sets)) {
    T.Size = G.LineSize * G.Ways * Sets;
    return T;
  }
  uint64_t NewSets = llvm::bit_floor(Sets);
  T.Ways = G.Ways * Sets / NewSets;
  T.Size = G.LineSize * T.Ways * NewSets;
  return T;
}

std::string cacheSpecText(const CacheGeometry &G) {
  std::string Size;
  if (G.Size % (1 << 20) == 0)
    Size = fmt::format("{}m", G.Size >> 20);
  else if (G.Size % (1 << 10) == 0)
    Size = fmt::format("{}k", G.Size >> 10);
  else
    Size = fmt::format("{}", G.Size);
  return fmt::format("{},{},{}", Size, G.Ways, G.LineSize);
}

MachineCaches readMachineCaches(StringRef Dir) {
  // Per level, the data (or unified) cache listed for it.
  std::map<uint64_t, CacheGeometry> Levels;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Entry = It->path();
    if (!sys::path::filename(Entry).starts_with("index"))
      continue;
    std::optional<uint64_t> Level = readNumber(Entry, "level");
    std::optional<std::string> Type = readField(Entry, "type");
    std::optional<std::string> Size = readField(Entry, "size");
    std::optional<uint64_t> Ways = readNumber(Entry, "ways_of_associativity");
    std::optional<uint64_t> Line = readNumber(Entry, "coherency_line_size");
    if (!Level || !Type || *Type == "Instruction" || !Size || !Ways || !Line)
      continue;
    std::optional<uint64_t> Bytes = settings::parseSize(*Size);
    if (!Bytes)
      continue;
    Levels[*Level] = CacheGeometry{*Bytes, *Line, *Ways};
  }
  MachineCaches M;
  auto Defaults = [&](StringRef Why) {
    M.D1 = CacheGeometry{65536, 64, 2};
    M.L2.reset();
    M.LL = CacheGeometry{262144, 64, 8};
    M.Note = fmt::format("{}: cachegrind's defaults, D1 64k,2,64 and LL "
                         "256k,8,64 (no L2); give --l1/--l2/--ll",
                         Why.str());
    return M;
  };
  if (!Levels.count(1) || Levels.size() < 2)
    return Defaults(
        fmt::format("the data caches could not be read from {}", Dir.str()));
  if (!valid(Levels[1]))
    return Defaults(fmt::format("the L1 data cache in {} ({}) has no "
                                "power-of-two line size and set count",
                                Dir.str(), cacheSpecText(Levels[1])));
  M.D1 = Levels[1];
  std::vector<std::string> Notes;
  // The last level is the highest listed, as cachegrind takes L3 for LL.
  uint64_t Last = Levels.rbegin()->first;
  auto Adjusted = [&](const char *Name, const CacheGeometry &G) {
    CacheGeometry T = tweakLastLevel(G);
    if (T.Size != G.Size || T.Ways != G.Ways)
      Notes.push_back(fmt::format("{} {} simulated as {} (sets rounded "
                                  "down to a power of two, as cachegrind "
                                  "does)",
                                  Name, cacheSpecText(G), cacheSpecText(T)));
    return T;
  };
  if (Levels.count(2) && Last > 2)
    M.L2 = Adjusted("L2", Levels[2]);
  M.LL = Adjusted("LL", Levels[Last]);
  if (!valid(*M.LL) || (M.L2 && !valid(*M.L2)))
    return Defaults(fmt::format("the caches in {} have no power-of-two line "
                                "sizes",
                                Dir.str()));
  if (!M.L2 && Last == 2)
    Notes.push_back("the machine has two levels: D1 and LL (its L2)");
  M.Note = join(Notes, "; ");
  return M;
}

Expected<CacheGeometry> parseCacheSpec(StringRef Spec) {
  SmallVector<StringRef, 3> Fields;
  Spec.split(Fields, ',');
  auto Fail = [&](const std::string &Why) {
    return createStringError(inconvertibleErrorCode(), "'%s': %s",
                             Spec.str().c_str(), Why.c_str());
  };
  if (Fields.size() != 3)
    return Fail("expected SIZE,WAYS,LINE (e.g. 32k,8,64)");
  std::optional<uint64_t> Size = settings::parseSize(Fields[0]);
  if (!Size || !*Size)
    return Fail(fmt::format("the size is not a size; expected {}",
                            settings::kSizeSpelling));
  uint64_t Ways, Line;
  if (Fields[1].getAsInteger(10, Ways) || Ways == 0)
    return Fail("the ways are not a positive whole number");
  if (Fields[2].getAsInteger(10, Line) || !isPowerOf2_64(Line))
    return Fail("the line size is not a power of two");
  CacheGeometry G{*Size, Line, Ways};
  if (!valid(G))
    return Fail("the number of sets (size / (ways * line size)) is not a "
                "whole power of two");
  return G;
}

Expected<std::vector<CacheLevel>>
chooseCacheLevels(const std::optional<std::string> &L1,
                  const std::optional<std::string> &L2,
                  const std::optional<std::string> &LL, std::string &Note,
                  StringRef SysfsDir) {
  MachineCaches M = readMachineCaches(SysfsDir);
  auto Given = [](const std::optional<std::string> &Spec, const char *Name,
                  std::optional<CacheGeometry> &Level) -> Error {
    if (!Spec)
      return Error::success();
    if (StringRef(Name) == "l2" && *Spec == "none") {
      Level.reset();
      return Error::success();
    }
    Expected<CacheGeometry> G = parseCacheSpec(*Spec);
    if (!G)
      return createStringError(inconvertibleErrorCode(), "%s %s", Name,
                               toString(G.takeError()).c_str());
    Level = *G;
    return Error::success();
  };
  if (Error E = Given(L1, "l1", M.D1))
    return E;
  if (Error E = Given(L2, "l2", M.L2))
    return E;
  if (Error E = Given(LL, "ll", M.LL))
    return E;
  // The machine's levels, or cachegrind's defaults: D1 and LL are always
  // known, so this only guards against a change of readMachineCaches().
  if (!M.D1 || !M.LL)
    return createStringError(inconvertibleErrorCode(),
                             "no first-level or last-level cache to model");
  std::vector<CacheLevel> Levels;
  Levels.push_back({"D1", *M.D1});
  if (M.L2)
    Levels.push_back({"L2", *M.L2});
  Levels.push_back({"LL", *M.LL});
  // Nothing to say of the machine once every level is given.
  if (L1 && LL && (L2 || !M.L2))
    Note.clear();
  else if ((L1 || L2 || LL) && !M.Note.empty())
    Note = "levels not given: " + M.Note;
  else
    Note = M.Note;
  return Levels;
}

} // namespace wgtrace::viewer
