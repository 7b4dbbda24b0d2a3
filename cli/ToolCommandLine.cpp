//===- ToolCommandLine.cpp - Parse a tool's options, report errors --------===//

#include "ToolCommandLine.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <string>

#include <unistd.h>

namespace wgtrace::cli {

llvm::raw_ostream &error(llvm::StringRef Tool) {
  return llvm::WithColor::error(llvm::errs(), Tool);
}

llvm::raw_ostream &note(llvm::StringRef Tool) {
  return llvm::WithColor::note(llvm::errs(), Tool);
}

namespace {

/// Collects what is written to file descriptor 2 while it lives. llvm::cl
/// writes a bad option value's message ("for the --x option: 'y' value
/// invalid") to llvm::errs() itself, not to the stream the parser is given.
class StderrCapture {
public:
  StderrCapture() {
    llvm::errs().flush();
    llvm::SmallString<128> Path;
    if (llvm::sys::fs::createTemporaryFile("wgtrace-options", "txt", File,
                                           Path))
      return;
    // Unlinked at once: nothing is left behind whatever happens next.
    (void)llvm::sys::fs::remove(Path);
    Saved = dup(2);
    if (Saved < 0 || dup2(File, 2) < 0) {
      close(File);
      if (Saved >= 0)
        close(Saved);
      Saved = -1;
    }
  }
  StderrCapture(const StderrCapture &) = delete;
  StderrCapture &operator=(const StderrCapture &) = delete;
  ~StderrCapture() { restore(); }

  /// Gives file descriptor 2 back and returns what was written to it.
  std::string restore() {
    if (Saved < 0)
      return "";
    llvm::errs().flush();
    dup2(Saved, 2);
    close(Saved);
    Saved = -1;
    llvm::SmallString<256> Text;
    if (lseek(File, 0, SEEK_SET) == 0)
      (void)llvm::errorToBool(llvm::sys::fs::readNativeFileToEOF(File, Text));
    close(File);
    return Text.str().str();
  }

private:
  int File = -1;
  int Saved = -1;
};

/// Removes the options that the libraries the tool links register for
/// themselves (LLVM's --threads, ...), which the tool's
/// HideUnrelatedOptions call hid: hidden, they were still accepted and did
/// nothing. Removed, they are refused as unknown options.
void removeHiddenLibraryOptions() {
  llvm::SmallPtrSet<llvm::cl::Option *, 32> Hidden;
  for (llvm::cl::SubCommand *Sub : llvm::cl::getRegisteredSubcommands())
    for (auto &Entry : llvm::cl::getRegisteredOptions(*Sub))
      if (Entry.second->getOptionHiddenFlag() == llvm::cl::ReallyHidden)
        Hidden.insert(Entry.second);
  for (llvm::cl::Option *O : Hidden)
    O->removeArgument();
}

} // namespace

bool parseToolCommandLine(llvm::StringRef Tool, int Argc,
                          const char *const *Argv, llvm::StringRef Overview) {
  std::string Messages;
  llvm::raw_string_ostream Errors(Messages);
  removeHiddenLibraryOptions();
  StderrCapture Stderr;
  // With an error stream, llvm::cl reports and returns instead of exiting;
  // --help and --version still exit here, on stdout.
  bool Parsed =
      llvm::cl::ParseCommandLineOptions(Argc, Argv, Overview, &Errors);
  Messages.insert(0, Stderr.restore());
  if (Parsed) {
    llvm::errs() << Messages;
    return true;
  }
  // llvm::cl prefixes most lines with the program name as invoked.
  std::string Invoked = (llvm::sys::path::filename(Argv[0]) + ": ").str();
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  llvm::StringRef(Messages).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    Line.consume_front(Invoked);
    Line = Line.trim();
    if (Line.consume_front("Did you mean "))
      note(Tool) << "did you mean " << Line << "\n";
    else if (Line.starts_with("Must specify"))
      note(Tool) << Line << "\n";
    else
      error(Tool) << Line << "\n";
  }
  return false;
}

} // namespace wgtrace::cli
