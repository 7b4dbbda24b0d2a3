//===- AccessGrouping.h - Group accesses by source line or buffer -*- C++
//-*-===//
//
// Reports can count by workgroup (the default), by dispatch site, by source
// line (the access sites of the rewriter, Record::AccessSite) or by buffer
// (the kernel parameter an access falls in, Record::Buffer): `--by
// workgroup|site|line|buffer`. This maps a record to a small key of its
// group and names the groups; several access sites on one line are one
// line.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_ACCESSGROUPING_H
#define WGTRACE_VIEWER_ACCESSGROUPING_H

#include "reader/Metadata.h"
#include "reader/Record.h"
#include "reader/TraceCensus.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace wgtrace::viewer {

enum class GroupBy : uint8_t { Workgroup, Site, Kernel, Line, Buffer };

std::optional<GroupBy> parseGroupBy(llvm::StringRef Text);
const char *groupByName(GroupBy By);

class AccessGrouping {
public:
  explicit AccessGrouping(GroupBy By) : By(By) {}

  GroupBy by() const { return By; }
  /// Line and buffer groups need a key per access; the others do not.
  bool perAccess() const {
    return By == GroupBy::Line || By == GroupBy::Buffer;
  }
  void beginRing(const Metadata *M) { Meta = M; }
  /// The key of a LOAD / STORE record's group: 0, 1, ... in order of first
  /// appearance.
  uint32_t key(const Record &R) {
    // Accesses come in runs of one site or buffer: the last key again.
    const uint32_t From = By == GroupBy::Line ? R.AccessSite : R.Buffer;
    if (From == LastFrom && Meta == LastMeta && HaveLast)
      return LastKey;
    return newKey(From);
  }
  size_t size() const { return Labels.size(); }
  /// After census(): "k.cc:12", "a", "(no access site)", "(no buffer)".
  const std::string &label(uint32_t Key) const { return Labels[Key]; }
  /// Line groups: the source text of their access sites ("a[i]").
  const std::vector<std::string> &texts(uint32_t Key) const {
    return Texts[Key];
  }
  /// Line groups: the file and line (unknown for "(no access site)" and a
  /// site without a place).
  const SourcePlace &place(uint32_t Key) const { return Places[Key]; }
  /// Names buffer groups (their labels need every buffer of the file).
  void census(const TraceCensus &C);
  /// The key here of \p Shard's group \p Key (a shard of the file read on
  /// another thread, whose buffer indices are \p Buffers' indices), added
  /// with its texts after those here if it is new.
  uint32_t adopt(const AccessGrouping &Shard, uint32_t Key,
                 llvm::ArrayRef<uint32_t> Buffers);

private:
  uint32_t lineKey(uint32_t Site);
  /// key() of an access of another site or buffer than the last one.
  uint32_t newKey(uint32_t From);
  /// The key of the line group \p Label, added (at \p Place) if new.
  uint32_t labelKey(const std::string &Label, const SourcePlace &Place);
  /// Adds \p Text to the texts of line group \p Key unless it is there.
  void addText(uint32_t Key, const std::string &Text);
  /// The key of the group of buffer \p Buffer (or kNoBuffer).
  uint32_t bufferKey(uint32_t Buffer);

  GroupBy By;
  const Metadata *Meta = nullptr;
  std::vector<std::string> Labels;
  std::vector<std::vector<std::string>> Texts;
  std::vector<SourcePlace> Places;
  llvm::StringMap<uint32_t> ByLabel;
  llvm::DenseMap<std::pair<const Metadata *, uint32_t>, uint32_t> BySite;
  /// By buffer, widened: kNoBuffer is DenseMap's empty key as a uint32_t.
  llvm::DenseMap<uint64_t, uint32_t> ByBuffer;
  std::vector<uint32_t> BufferOfKey;
  /// The last lookup, for runs of accesses from one site or buffer.
  bool HaveLast = false;
  const Metadata *LastMeta = nullptr;
  uint32_t LastFrom = 0;
  uint32_t LastKey = 0;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ACCESSGROUPING_H
