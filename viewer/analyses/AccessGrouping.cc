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

uint32_t AccessGrouping::lineKey(uint32_t Site) {
  auto [It, New] = BySite.try_emplace({Meta, Site}, 0);
  if (!New)
    return It->second;
  const AccessSite *A = Meta ? Meta->accessSite(Site) : nullptr;
  std::string Label =
      A && A->Where.known() ? A->Where.str()
      : A ? "(access site " + std::to_string(Site) + ", no place)"
          : "(no access site)";
  auto [L, NewLabel] = ByLabel.try_emplace(Label, uint32_t(Labels.size()));
  if (NewLabel) {
    Labels.push_back(Label);
    Texts.emplace_back();
    Places.push_back(A && A->Where.known()
                         ? SourcePlace{A->Where.File, A->Where.Line, 0}
                         : SourcePlace());
  }
  It->second = L->second;
  if (A && !A->Text.empty()) {
    std::vector<std::string> &T = Texts[L->second];
    if (std::find(T.begin(), T.end(), A->Text) == T.end())
      T.push_back(A->Text);
  }
  return L->second;
}

uint32_t AccessGrouping::newKey(uint32_t From) {
  uint32_t Key;
  if (By == GroupBy::Line) {
    Key = lineKey(From);
  } else {
    auto [It, New] =
        ByBuffer.try_emplace(uint64_t(From), uint32_t(Labels.size()));
    if (New) {
      Labels.push_back(From == kNoBuffer ? "(no buffer)" : "");
      Texts.emplace_back();
      Places.emplace_back();
      BufferOfKey.push_back(From);
    }
    Key = It->second;
  }
  HaveLast = true;
  LastFrom = From;
  LastMeta = Meta;
  LastKey = Key;
  return Key;
}

void AccessGrouping::census(const TraceCensus &C) {
  if (By != GroupBy::Buffer)
    return;
  for (uint32_t K = 0; K < Labels.size(); ++K)
    if (BufferOfKey[K] != kNoBuffer)
      Labels[K] = C.bufferLabel(BufferOfKey[K]);
}

} // namespace wgtrace::viewer
