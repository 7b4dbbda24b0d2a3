//===- BufferResolver.cc --------------------------------------------------===//

#include "reader/BufferResolver.h"

#include <algorithm>

using namespace llvm;

namespace wgtrace::viewer {

/// How far a pointer parameter without an extent is taken to reach when no
/// other parameter's base bounds it.
static constexpr uint64_t kUnboundedReach = uint64_t(64) << 30;

void BufferResolver::beginRing(const Metadata *M) {
  Meta = M;
  Active = false;
  if (M)
    for (const FunctionExtension &F : M->FunctionExtensions)
      Active |= !F.Params.empty();
  LastInvocation = UINT64_MAX;
  LastSet = nullptr;
}

void BufferResolver::value(const Record &R) {
  const bool Base = R.Value.Type == format::ValueType::BufferBase;
  if ((!Base && R.Value.Type != format::ValueType::BufferExtent) ||
      !R.Workgroup)
    return;
  const uint64_t Invocation = R.Workgroup->Invocation;
  auto [It, New] = Namings.try_emplace(Invocation);
  Naming &N = It->second;
  if (New) {
    N.Meta = Meta;
    N.Function = Meta->SiteFunctions[R.Workgroup->Record.DispatchId];
    // Named again (a prologue after a copy whose first records were lost):
    // the new names replace the old.
    SetOf.erase(Invocation);
    if (Invocation == LastInvocation)
      LastInvocation = UINT64_MAX;
  }
  if (N.Params.size() <= R.Value.Ordinal)
    N.Params.resize(R.Value.Ordinal + 1);
  (Base ? N.Params[R.Value.Ordinal].first : N.Params[R.Value.Ordinal].second) =
      R.Value.Bits;
}

uint32_t BufferResolver::intern(const BufferInfo &B) {
  auto [It, New] = BufferIndex.try_emplace(
      {B.Function, B.Ordinal, B.Base, B.Extent.value_or(UINT64_MAX)},
      uint32_t(Buffers.size()));
  if (New)
    Buffers.push_back(B);
  return It->second;
}

uint32_t BufferResolver::finish(const Naming &N) {
  const FunctionExtension *X = N.Meta->functionExtension(N.Function);
  std::vector<Range> Set;
  for (uint32_t I = 0; I < N.Params.size(); ++I) {
    const std::optional<uint64_t> &Base = N.Params[I].first;
    if (!Base)
      continue;
    BufferInfo B;
    B.Function = N.Meta->Functions[N.Function].nameOr("(null)").str();
    B.Ordinal = I;
    B.Base = *Base;
    B.Extent = N.Params[I].second;
    if (X && I < X->Params.size()) {
      B.Name = X->Params[I].Name;
      B.Type = X->Params[I].Type;
    } else {
      B.Name = "param#" + std::to_string(I);
    }
    if (B.Extent && *B.Extent == 0)
      continue; // an empty buffer holds no access
    Set.push_back({B.Base, 0, intern(B)});
  }
  std::sort(Set.begin(), Set.end(),
            [](const Range &A, const Range &B) { return A.Lo < B.Lo; });
  for (size_t I = 0; I < Set.size(); ++I) {
    const BufferInfo &B = Buffers[Set[I].Buffer];
    if (B.Extent) {
      Set[I].Hi = B.Base + *B.Extent < B.Base ? UINT64_MAX : B.Base + *B.Extent;
      continue;
    }
    uint64_t Hi = B.Base + kUnboundedReach < B.Base ? UINT64_MAX
                                                    : B.Base + kUnboundedReach;
    for (size_t J = I + 1; J < Set.size(); ++J)
      if (Set[J].Lo > B.Base) {
        Hi = std::min(Hi, Set[J].Lo);
        break;
      }
    Set[I].Hi = Hi;
  }
  std::vector<std::tuple<uint64_t, uint64_t, uint32_t>> Key;
  Key.reserve(Set.size());
  for (const Range &R : Set)
    Key.emplace_back(R.Lo, R.Hi, R.Buffer);
  auto [It, New] = SetIndex.try_emplace(std::move(Key), uint32_t(Sets.size()));
  if (New)
    Sets.push_back(std::move(Set));
  return It->second;
}

uint32_t BufferResolver::resolve(const Record &R) {
  if (!R.Workgroup)
    return kNoBuffer;
  const uint64_t Address = R.Memory.Address;
  const uint64_t Invocation = R.Workgroup->Invocation;
  if (Invocation == LastInvocation) {
    if (Address - LastRange.Lo < LastRange.Hi - LastRange.Lo)
      return LastRange.Buffer;
  } else {
    auto Named = Namings.find(Invocation);
    if (Named != Namings.end()) {
      SetOf[Invocation] = finish(Named->second);
      Namings.erase(Named);
    }
    auto It = SetOf.find(Invocation);
    LastInvocation = Invocation;
    LastSet = It == SetOf.end() ? nullptr : &Sets[It->second];
    LastRange = Range();
  }
  if (!LastSet)
    return kNoBuffer;
  // Few parameters: the innermost range that holds the address.
  const Range *Best = nullptr;
  for (const Range &Candidate : *LastSet)
    if (Address - Candidate.Lo < Candidate.Hi - Candidate.Lo &&
        (!Best || Candidate.Hi - Candidate.Lo < Best->Hi - Best->Lo))
      Best = &Candidate;
  if (!Best)
    return kNoBuffer;
  LastRange = *Best;
  return Best->Buffer;
}

} // namespace wgtrace::viewer
