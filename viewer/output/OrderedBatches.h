//===- OrderedBatches.h - Text formatted on threads, written in order -*- C++
//-*-===//
//
// The outputs of one line per record (dump, export --format csv|jsonl)
// spend most of their time formatting, not decoding. The decoding thread
// keeps what a batch of lines needs (their numbers, and the few lines it
// formats itself, in their place), a pool thread turns the batch into
// text, and the batches' text is written in the order they were made: the
// output is the one-thread output, byte for byte. At most twice as many
// batches as threads wait, so memory is a few batches whatever the file;
// batches written are kept for reuse (grown already: no page faults).
//
// Batch needs format() (run on a pool thread), writeTo(raw_ostream &)
// (writes its output, after format(), and returns true; or writes nothing
// and returns false: then no batch is written any more, stopped()),
// clear() and empty(). `compress` and `decompress` use it with one chunk
// per batch, made on the pool, a damaged chunk stopping the writing.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_ORDEREDBATCHES_H
#define WGTRACE_VIEWER_ORDEREDBATCHES_H

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <utility>
#include <vector>

namespace wgtrace::viewer {

template <class Batch> class OrderedBatches {
public:
  OrderedBatches() = default;
  OrderedBatches(const OrderedBatches &) = delete;
  OrderedBatches &operator=(const OrderedBatches &) = delete;
  ~OrderedBatches() {
    // A batch with the pool is formatted into memory of ours.
    for (auto &W : Waiting)
      W.second.wait();
  }

  /// Formats on \p Threads threads (0: the cores available); fewer than
  /// two: none (active() is false), the caller formats as before.
  void setThreads(unsigned Threads) {
    Pool.reset();
    llvm::ThreadPoolStrategy S = llvm::hardware_concurrency(Threads);
    if (S.compute_thread_count() < 2)
      return;
    Pool = std::make_unique<llvm::DefaultThreadPool>(S);
    // Each thread a batch to format and one ready to start.
    MaxWaiting = 2 * size_t(Pool->getMaxConcurrency());
  }
  bool active() const { return Pool != nullptr; }

  /// The batch being filled: one written before, or a new one.
  Batch &open() {
    if (!Open) {
      if (Spare.empty()) {
        Open = std::make_unique<Batch>();
      } else {
        Open = std::move(Spare.back());
        Spare.pop_back();
      }
    }
    return *Open;
  }
  bool isOpen() const { return Open != nullptr; }

  /// Hands the open batch to the pool; writes the oldest batches to \p OS
  /// while more than a few wait.
  void submit(llvm::raw_ostream &OS) {
    if (!Open || Open->empty())
      return;
    Batch &B = *Open;
    std::shared_future<void> Done = Pool->async([&B] { B.format(); });
    Waiting.emplace_back(std::move(Open), std::move(Done));
    ++Submitted;
    while (Waiting.size() > MaxWaiting)
      writeOldest(OS);
  }

  /// Submits the open batch and writes every batch to \p OS.
  void drain(llvm::raw_ostream &OS) {
    if (!Pool)
      return;
    submit(OS);
    while (!Waiting.empty())
      writeOldest(OS);
  }

  /// Batches handed to the pool so far.
  uint64_t submitted() const { return Submitted; }
  /// Whether a batch's writeTo() said to write no more: the batches after
  /// it are formatted but not written.
  bool stopped() const { return Stopped; }

private:
  void writeOldest(llvm::raw_ostream &OS) {
    auto &[B, Done] = Waiting.front();
    Done.wait();
    if (!Stopped && !B->writeTo(OS))
      Stopped = true;
    B->clear();
    Spare.push_back(std::move(B));
    Waiting.pop_front();
  }

  std::unique_ptr<llvm::ThreadPoolInterface> Pool;
  size_t MaxWaiting = 0;
  std::unique_ptr<Batch> Open;
  /// Batches with the pool, oldest first, and their completion.
  std::deque<std::pair<std::unique_ptr<Batch>, std::shared_future<void>>>
      Waiting;
  std::vector<std::unique_ptr<Batch>> Spare;
  uint64_t Submitted = 0;
  bool Stopped = false;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ORDEREDBATCHES_H
