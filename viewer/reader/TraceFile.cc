//===- TraceFile.cc -------------------------------------------------------===//

#include "reader/TraceFile.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/Process.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace wgtrace::viewer {

Expected<TraceFile> TraceFile::open(StringRef Path) {
  // No null terminator and no volatile-file copy: mmap whenever possible.
  auto BufferOrErr = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!BufferOrErr)
    return createStringError(BufferOrErr.getError(), "cannot open: %s",
                             BufferOrErr.getError().message().c_str());
  TraceFile File;
  File.Buffer = std::move(*BufferOrErr);
  File.Bytes = arrayRefFromStringRef(File.Buffer->getBuffer());
  return File;
}

void TraceFile::release(uint64_t Begin, uint64_t End) const {
  if (!Buffer || Buffer->getBufferKind() != MemoryBuffer::MemoryBuffer_MMap)
    return;
  End = std::min<uint64_t>(End, Bytes.size());
  // Whole pages only: the pages at either end may hold bytes still in use.
  const uintptr_t Page = sys::Process::getPageSizeEstimate();
  const uintptr_t Base = reinterpret_cast<uintptr_t>(Bytes.data());
  uintptr_t From = (Base + Begin + Page - 1) & ~(Page - 1);
  uintptr_t To = (Base + End) & ~(Page - 1);
  // The range as a pointer into Bytes, not one made from an integer.
  if (From < To)
    ::madvise(const_cast<uint8_t *>(Bytes.data()) + (From - Base), To - From,
              MADV_DONTNEED);
}

TraceFile TraceFile::fromBytes(ArrayRef<uint8_t> Bytes) {
  TraceFile File;
  File.Bytes = Bytes;
  return File;
}

Expected<bool> TraceFile::ChunkIterator::next(Chunk &C) {
  if (Offset >= Bytes.size())
    return false;
  C = Chunk();
  C.Where.Index = Index;
  C.Offset = Offset;
  uint64_t Left = Bytes.size() - Offset;
  if (Left < format::kChunkHeaderSize)
    return chunkError(C.Where, Offset,
                      Twine("truncated chunk header: ") + Twine(Left) + " of " +
                          Twine(format::kChunkHeaderSize) +
                          " bytes before the end of the file");
  std::memcpy(&C.Header, Bytes.data() + Offset, sizeof(C.Header));
  if (C.Header.Magic != format::kChunkMagic)
    return chunkError(C.Where, Offset,
                      Twine("bad magic 0x") + Twine::utohexstr(C.Header.Magic) +
                          ", expected 0x" +
                          Twine::utohexstr(format::kChunkMagic) +
                          " (\"IDB0\")");
  C.Where.TypeName = chunkTypeName(C.Header.Type);
  if (C.Header.Type != uint16_t(format::ChunkType::DispatchMetadata) &&
      C.Header.Type != uint16_t(format::ChunkType::DispatchRingBuffer) &&
      C.Header.Type != uint16_t(format::ChunkType::WorkgroupTiming))
    return chunkError(C.Where, Offset,
                      Twine("unknown chunk type ") + Twine(C.Header.Type));
  // Version 1 timing chunks (format extension 1) start with a header.
  if (C.Header.Version != 0 &&
      !(C.Header.Type == uint16_t(format::ChunkType::WorkgroupTiming) &&
        C.Header.Version == format::kTimingChunkVersion))
    return chunkError(C.Where, Offset + 6,
                      Twine("unsupported chunk version ") +
                          Twine(C.Header.Version));
  uint64_t Available = Left - format::kChunkHeaderSize;
  if (C.Header.ContentLength > Available) {
    Missing = C.Header.ContentLength - Available;
    Cut = C;
    Cut->Content = Bytes.slice(Offset + format::kChunkHeaderSize, Available);
    Offset = Bytes.size();
    return chunkError(C.Where, C.Offset + 8,
                      Twine("truncated: content_length ") +
                          Twine(C.Header.ContentLength) + " but only " +
                          Twine(Available) + " bytes left in the file (" +
                          Twine(Missing) + " bytes missing)");
  }
  C.Content =
      Bytes.slice(Offset + format::kChunkHeaderSize, C.Header.ContentLength);
  // The last chunk's alignment padding may be missing: IREE's reader stops
  // at the end of the file as well.
  Offset += format::kChunkHeaderSize +
            format::alignUp(C.Header.ContentLength, format::kChunkAlignment);
  ++Index;
  return true;
}

} // namespace wgtrace::viewer
