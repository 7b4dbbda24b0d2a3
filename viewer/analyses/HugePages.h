//===- HugePages.h - Ask for transparent huge pages -------------*- C++ -*-===//
//
// A buffer of several MiB written from its start (a chunk's kept accesses,
// a launch's ranges) faults its pages in one by one, 4 KiB at a time; on a
// virtual machine a page fault costs microseconds, and with two threads
// filling such buffers at once those faults were most of the system time
// that two threads cost more than one. Where transparent huge pages are
// enabled on request (madvise), asking for them makes a fault bring 2 MiB.
// Only the 2 MiB-aligned part inside the buffer is advised: the pages
// around it may hold other allocations. Nothing elsewhere, or when the
// kernel refuses.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_HUGEPAGES_H
#define WGTRACE_VIEWER_HUGEPAGES_H

#include <cstddef>

namespace wgtrace::viewer {

/// Advises huge pages for the 2 MiB-aligned part of [\p Begin, \p Begin +
/// \p Bytes).
void adviseHugePages(void *Begin, size_t Bytes);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_HUGEPAGES_H
