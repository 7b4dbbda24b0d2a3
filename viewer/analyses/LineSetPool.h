//===- LineSetPool.h - Emptied line sets kept for reuse ---------*- C++ -*-===//
//
// summary counts the distinct cache lines of every workgroup invocation in
// a set of its own, from its first record until its chunk ends. A set grown
// anew per invocation is memory that malloc hands back to the system when
// the invocation ends and that faults in again for the next one: with ring
// chunks read on several threads (a shard's invocations all end with its
// chunk, and each thread's allocator trims its own heap), most of the page
// faults and a sixth of the CPU time of `summary --threads 2`. Ended
// invocations give their sets back here, emptied but grown, and new ones
// take them. A tool and its shards share one pool, so the sets a chunk's
// invocations used serve the next chunk on whichever thread reads it, and
// the pool holds no more sets than were open at once.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_LINESETPOOL_H
#define WGTRACE_VIEWER_LINESETPOOL_H

#include "analyses/RecyclePool.h"

#include "llvm/ADT/DenseSet.h"

#include <cstdint>

namespace wgtrace::viewer {

using LineSetPool = RecyclePool<llvm::DenseSet<uint64_t>>;

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_LINESETPOOL_H
