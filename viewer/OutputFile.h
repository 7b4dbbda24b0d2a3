//===- OutputFile.h - Write a report atomically, or fail in one line -*- C++
//-*-===//
//
// `-o FILE` goes to a temporary file in FILE's directory that is renamed
// over FILE only when everything was written: a damaged input, a full disk
// or a crash never leaves a partial report behind. Standard output ("-")
// is written directly. Write errors are returned, never left to LLVM's
// "IO failure on output stream" abort.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_OUTPUTFILE_H
#define WGTRACE_VIEWER_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace wgtrace::viewer {

class OutputFile {
public:
  /// Opens \p Path ("-": standard output).
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
  /// damaged). Standard output cannot be taken back.
  void discard();
  bool isStdout() const { return Path == "-"; }
  const std::string &path() const { return Path; }

private:
  OutputFile() = default;

  std::string Path;
  std::string TempPath;
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
