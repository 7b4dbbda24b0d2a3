//===- DecoderFuzzer.cc - libFuzzer entry point for the trace decoder ----===//
//
// Feeds arbitrary bytes through the reader in both ring modes with the dump
// tool attached, so that formatting of every decoded field is exercised too.
// Errors are expected; crashes, leaks and out-of-bounds reads are not.
//
//===----------------------------------------------------------------------===//

#include "DumpTool.h"
#include "TraceReader.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <memory>

using namespace wgtrace::viewer;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A real file is mmapped page-aligned; copy into an aligned block so the
  // FlatBuffer verifier sees the same alignment, and exactly Size bytes so
  // that ASan catches a read one past the end.
  std::unique_ptr<uint8_t[]> Copy(new (std::align_val_t(16)) uint8_t[Size]);
  if (Size)
    std::memcpy(Copy.get(), Data, Size);
  TraceFile File = TraceFile::fromBytes(llvm::ArrayRef(Copy.get(), Size));
  for (RingMode Mode : {RingMode::WrapAware, RingMode::IreeCompat}) {
    llvm::raw_null_ostream Null;
    DumpOptions Options;
    Options.IreeCompat = Mode == RingMode::IreeCompat;
    DumpTool Dump(Null, Options);
    TraceReader Reader(File, Mode);
    AnalysisTool *Tools[] = {&Dump};
    llvm::consumeError(Reader.run(Tools));
  }
  return 0;
}
