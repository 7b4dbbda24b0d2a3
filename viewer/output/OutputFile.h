//===- OutputFile.h - Write a report to a path, or fail in one line -*- C++
//-*-===//
//
// `-o PATH` is written as the runtime writes traces (output_target.h): a
// file is replaced atomically (a temporary file in its folder, unique to
// this process, renamed over it only when everything was written, removed
// on an error or a signal), so a damaged input, a full disk or Ctrl-C
// never leaves a partial report behind; a symlink's target is written and
// the link stays; a device, FIFO or socket is written in place, never
// replaced; "-" and /dev/stdout are standard output. Write errors are
// returned, never left to LLVM's "IO failure on output stream" abort.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_OUTPUTFILE_H
#define WGTRACE_VIEWER_OUTPUTFILE_H

#include "output_target.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace wgtrace::viewer {

class OutputFile {
public:
  /// Opens \p Path ("-": standard output). A FIFO waits for its reader.
  static llvm::Expected<std::unique_ptr<OutputFile>> open(llvm::StringRef Path);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  llvm::raw_ostream &os() { return *Stream; }
  /// Flushes and, for a file, renames the temporary file over the target.
  /// On a write error the temporary file is removed and the error says
  /// what failed ("<path>: No space left on device").
  llvm::Error commit();
  /// Removes the temporary file (the report is not wanted: the input was
  /// damaged). What went to standard output, a device, a FIFO or a socket
  /// cannot be taken back.
  void discard();
  /// Whether discard() leaves no trace of the report: the output replaces
  /// a file only when committed.
  bool discardable() const {
    return !isStdout() && Target.How == output::Kind::Replace;
  }
  bool isStdout() const { return Path == "-"; }
  const std::string &path() const { return Path; }

private:
  OutputFile() = default;

  std::string Path;
  output::Target Target;
  output::Open File;
  /// Writes to a FIFO or socket whose reader has gone fail with EPIPE
  /// instead of ending the process.
  std::unique_ptr<output::SigpipeBlock> NoSigpipe;
  std::unique_ptr<llvm::raw_fd_ostream> Own;
  llvm::raw_fd_ostream *Stream = nullptr;
  bool Done = false;
};

/// Checks standard output after everything was written to it (a full disk
/// or a closed pipe): the error, or success. Clears the stream's error so
/// that LLVM does not abort at exit.
llvm::Error checkStdout();

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_OUTPUTFILE_H
