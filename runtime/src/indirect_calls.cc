//===- indirect_calls.cc - Calls through pointers -------------------------===//

#include "indirect_calls.h"

#include "wgtrace/detail/indirect.h"
#include "wgtrace/detail/thread_state.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <tuple>
#include <vector>

namespace wgtrace::runtime {
namespace {

/// What calls through pointers look up: the registered targets, sorted by
/// key. Registration (static initialisation, dlopen) publishes a new one;
/// a published one never changes and is never freed, so that a lookup
/// reads it without a lock while another thread registers.
struct TargetTable {
  std::vector<detail::IndirectTarget> Targets;
};

struct Registry {
  std::mutex Lock;
  std::atomic<const TargetTable *> Published{nullptr};
  std::vector<const detail::IndirectCalls *> Calls;
  uint64_t NextCall = 0;
};

// Leaked on purpose: read by the exit handler and by calls made while the
// program exits.
Registry &registry() {
  static Registry *R = new Registry;
  return *R;
}

bool keyLess(const detail::IndirectTarget &A, const detail::IndirectTarget &B) {
  return std::tie(A.Key[0], A.Key[1]) < std::tie(B.Key[0], B.Key[1]);
}

} // namespace

void forEachIndirectCalls(
    const std::function<void(const detail::IndirectCalls &)> &Visit) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  for (const detail::IndirectCalls *C : R.Calls)
    Visit(*C);
}

} // namespace wgtrace::runtime

namespace wgtrace::detail {

IndirectCalls::IndirectCalls(const IndirectCallInfo *Calls, size_t NumCalls)
    : Calls(Calls), NumCalls(NumCalls) {
  runtime::Registry &R = runtime::registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  Base = R.NextCall;
  R.NextCall += NumCalls;
  R.Calls.push_back(this);
}

IndirectTargets::IndirectTargets(const IndirectTarget *Targets,
                                 size_t NumTargets) {
  runtime::Registry &R = runtime::registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  auto *Table = new runtime::TargetTable;
  if (const runtime::TargetTable *Old = R.Published.load())
    Table->Targets = Old->Targets;
  Table->Targets.insert(Table->Targets.end(), Targets, Targets + NumTargets);
  // Two files may register one function (an inline function of a header,
  // each with its own copy): either copy is instrumented.
  std::sort(Table->Targets.begin(), Table->Targets.end(), runtime::keyLess);
  R.Published.store(Table, std::memory_order_release);
}

const IndirectTarget *findIndirectTarget(uintptr_t Key0,
                                         uintptr_t Key1) noexcept {
  const runtime::TargetTable *Table =
      runtime::registry().Published.load(std::memory_order_acquire);
  if (!Table)
    return nullptr;
  IndirectTarget Wanted{{Key0, Key1}, nullptr, false};
  auto It = std::lower_bound(Table->Targets.begin(), Table->Targets.end(),
                             Wanted, runtime::keyLess);
  if (It == Table->Targets.end() || It->Key[0] != Key0 || It->Key[1] != Key1)
    return nullptr;
  return &*It;
}

void noteUninstrumentedCall(uint64_t CallId) noexcept {
  recordValueBits(format::ValueType::UninstrumentedCall, 0, CallId);
}

} // namespace wgtrace::detail
