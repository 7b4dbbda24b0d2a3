//===- RecyclePool.h - Emptied containers kept for reuse --------*- C++ -*-===//
//
// A container grown anew for every invocation, chunk or launch is memory
// that malloc hands back to the system when it is freed and that faults in
// again, page by page, for the next one: with ring chunks read on several
// threads (each thread's allocator trims its own heap), those page faults
// were a large part of the system time, and of what two threads cost more
// than one. Containers done with are given back here, emptied but grown,
// and the next user takes them, on whichever thread it runs. The pool
// holds no more of them than were in use at once.
//
// T needs clear() (emptying it without giving up its storage) and a move
// constructor.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_RECYCLEPOOL_H
#define WGTRACE_VIEWER_RECYCLEPOOL_H

#include "llvm/ADT/SmallVector.h"

#include <mutex>

namespace wgtrace::viewer {

template <class T> class RecyclePool {
public:
  /// An empty container: one given back (grown already) if there is one.
  T take() {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Free.empty())
      return T();
    T Taken = std::move(Free.back());
    Free.pop_back();
    return Taken;
  }

  /// Empties \p Container and keeps it for take().
  void give(T Container) {
    Container.clear();
    std::lock_guard<std::mutex> Guard(Lock);
    Free.push_back(std::move(Container));
  }

private:
  std::mutex Lock;
  /// SmallVector moves the containers when it grows; std::vector would copy
  /// those whose move constructor is not noexcept (DenseSet's).
  llvm::SmallVector<T, 0> Free;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_RECYCLEPOOL_H
