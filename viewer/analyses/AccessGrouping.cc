//===- AccessGrouping.cc --------------------------------------------------===//

#include "analyses/AccessGrouping.h"

#include <algorithm>

using namespace llvm;

namespace wgtrace::viewer {

std::optional<GroupBy> parseGroupBy(StringRef Text) {
  if (Text == "workgroup")
    return GroupBy::Workgroup;
  if (Text == "site")
    return GroupBy::Site;
  if (Text == "kernel")
    return GroupBy::Kernel;
  if (Text == "line")
    return GroupBy::Line;
  if (Text == "buffer")
    return GroupBy::Buffer;
  return std::nullopt;
}

const char *groupByName(GroupBy By) {
  switch (By) {
  case GroupBy::Workgroup:
    return "workgroup";
  case GroupBy::Site:
    return "site";
  case GroupBy::Kernel:
    return "kernel";
  case GroupBy::Line:
    return "line";
  case GroupBy::Buffer:
    return "buffer";
  }
  return "workgroup";
}

uint32_t AccessGrouping::labelKey(const std::string &Label,
                                  const SourcePlace &Place) {
  auto [L, New] = ByLabel.try_emplace(Label, uint32_t(Labels.size()));
  if (New) {
    Labels.push_back(Label);
    Texts.emplace_back();
    Places.push_back(Place);
  }
  return L->second;
}

void AccessGrouping::addText(uint32_t Key, const std::string &Text) {
  std::vector<std::string> &T = Texts[Key];
  if (std::find(T.begin(), T.end(), Text) == T.end())
    T.push_back(Text);
}

uint32_t AccessGrouping::lineKey(uint32_t Site) {
  auto [It, New] = BySite.try_emplace({Meta, Site}, 0);
  if (!New)
    return It->second;
  const AccessSite *A = Meta ? Meta->accessSite(Site) : nullptr;
  std::string Label =
      A && A->Where.known() ? A->Where.str()
      : A ? "(access site " + std::to_string(Site) + ", no place)"
          : "(no access site)";
  It->second =
      labelKey(Label, A && A->Where.known()
                          ? SourcePlace{A->Where.File, A->Where.Line, 0}
                          : SourcePlace());
  if (A && !A->Text.empty())
    addText(It->second, A->Text);
  return It->second;
}

uint32_t AccessGrouping::bufferKey(uint32_t Buffer) {
  auto [It, New] =
      ByBuffer.try_emplace(uint64_t(Buffer), uint32_t(Labels.size()));
  if (New) {
    Labels.push_back(Buffer == kNoBuffer ? "(no buffer)" : "");
    Texts.emplace_back();
    Places.emplace_back();
    BufferOfKey.push_back(Buffer);
  }
  return It->second;
}

uint32_t AccessGrouping::newKey(uint32_t From) {
  const uint32_t Key = By == GroupBy::Line ? lineKey(From) : bufferKey(From);
  HaveLast = true;
  LastFrom = From;
  LastMeta = Meta;
  LastKey = Key;
  return Key;
}

uint32_t AccessGrouping::adopt(const AccessGrouping &Shard, uint32_t Key,
                               ArrayRef<uint32_t> Buffers) {
  if (By == GroupBy::Buffer) {
    const uint32_t Buffer = Shard.BufferOfKey[Key];
    return bufferKey(Buffer == kNoBuffer ? kNoBuffer : Buffers[Buffer]);
  }
  const uint32_t Here = labelKey(Shard.Labels[Key], Shard.Places[Key]);
  for (const std::string &Text : Shard.Texts[Key])
    addText(Here, Text);
  return Here;
}

void AccessGrouping::census(const TraceCensus &C) {
  if (By != GroupBy::Buffer)
    return;
  for (uint32_t K = 0; K < Labels.size(); ++K)
    if (BufferOfKey[K] != kNoBuffer)
      Labels[K] = C.bufferLabel(BufferOfKey[K]);
}

} // namespace wgtrace::viewer
