//===- OutputFile.cc ------------------------------------------------------===//

#include "OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace wgtrace::viewer {

Expected<std::unique_ptr<OutputFile>> OutputFile::open(StringRef Path) {
  std::unique_ptr<OutputFile> F(new OutputFile());
  F->Path = Path.str();
  if (Path == "-") {
    F->Stream = &outs();
    return F;
  }
  // Beside the target, so that the rename stays on one file system.
  SmallString<256> Model(sys::path::parent_path(Path));
  sys::path::append(Model, "." + sys::path::filename(Path) + ".%%%%%%.tmp");
  int FD = -1;
  SmallString<256> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Temp))
    return createStringError(EC, "%s: cannot create a file here: %s",
                             Path.str().c_str(), EC.message().c_str());
  F->TempPath = Temp.str().str();
  F->Own = std::make_unique<raw_fd_ostream>(FD, /*shouldClose=*/true);
  F->Stream = F->Own.get();
  return F;
}

OutputFile::~OutputFile() {
  if (!Done)
    discard();
}

void OutputFile::discard() {
  Done = true;
  if (!Own)
    return;
  Own->clear_error();
  Own->close();
  Own->clear_error();
  (void)sys::fs::remove(TempPath);
}

Error OutputFile::commit() {
  Done = true;
  if (!Own)
    return checkStdout();
  Own->close();
  if (Own->has_error()) {
    std::error_code EC = Own->error();
    Own->clear_error();
    (void)sys::fs::remove(TempPath);
    return createStringError(EC, "%s: write failed: %s", Path.c_str(),
                             EC.message().c_str());
  }
  if (std::error_code EC = sys::fs::rename(TempPath, Path)) {
    (void)sys::fs::remove(TempPath);
    return createStringError(EC, "%s: cannot replace the file: %s",
                             Path.c_str(), EC.message().c_str());
  }
  return Error::success();
}

Error checkStdout() {
  raw_fd_ostream &Out = outs();
  Out.flush();
  if (!Out.has_error())
    return Error::success();
  std::error_code EC = Out.error();
  Out.clear_error();
  return createStringError(EC, "standard output: write failed: %s",
                           EC.message().c_str());
}

} // namespace wgtrace::viewer
