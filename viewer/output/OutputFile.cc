//===- OutputFile.cc ------------------------------------------------------===//

#include "output/OutputFile.h"

#include "llvm/Support/Signals.h"

#include <system_error>

using namespace llvm;

namespace wgtrace::viewer {

namespace {
std::string message(int Errno) {
  return std::error_code(Errno, std::generic_category()).message();
}
} // namespace

Expected<std::unique_ptr<OutputFile>> OutputFile::open(StringRef Path) {
  std::unique_ptr<OutputFile> F(new OutputFile());
  F->Path = Path.str();
  if (Path == "-") {
    F->Stream = &outs();
    return F;
  }
  if (int E = output::resolve(F->Path.c_str(), F->Target))
    return createStringError(std::error_code(E, std::generic_category()),
                             "%s: cannot write here: %s", F->Path.c_str(),
                             message(E).c_str());
  if (F->Target.How != output::Kind::Replace)
    F->NoSigpipe = std::make_unique<output::SigpipeBlock>();
  if (int E = output::open(F->Target, F->File))
    return createStringError(std::error_code(E, std::generic_category()),
                             "%s: %s: %s", F->Path.c_str(),
                             F->Target.How == output::Kind::Replace
                                 ? "cannot create a temporary file beside it"
                                 : "cannot open",
                             message(E).c_str());
  // Ctrl-C while the report is written leaves no temporary file.
  if (F->File.TemporaryPath[0])
    sys::RemoveFileOnSignal(F->File.TemporaryPath);
  F->Own = std::make_unique<raw_fd_ostream>(F->File.Fd, /*shouldClose=*/false);
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
  Own->flush();
  Own->clear_error();
  std::string Temporary = File.TemporaryPath;
  output::discard(File);
  if (!Temporary.empty())
    sys::DontRemoveFileOnSignal(Temporary);
}

Error OutputFile::commit() {
  Done = true;
  if (!Own)
    return checkStdout();
  Own->flush();
  std::string Temporary = File.TemporaryPath;
  auto Forget = [&] {
    if (!Temporary.empty())
      sys::DontRemoveFileOnSignal(Temporary);
  };
  if (Own->has_error()) {
    std::error_code EC = Own->error();
    Own->clear_error();
    output::discard(File);
    Forget();
    return createStringError(EC, "%s: write failed: %s", Path.c_str(),
                             EC.message().c_str());
  }
  int E = output::commitReplace(Target, File);
  Forget();
  if (E)
    return createStringError(
        std::error_code(E, std::generic_category()), "%s: %s: %s", Path.c_str(),
        Target.How == output::Kind::Replace ? "cannot replace the file"
                                            : "write failed",
        message(E).c_str());
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
