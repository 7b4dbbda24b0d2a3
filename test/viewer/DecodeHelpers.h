//===- DecodeHelpers.h - Run the viewer's tools over bytes ------*- C++ -*-===//

#ifndef WGTRACE_TEST_VIEWER_DECODEHELPERS_H
#define WGTRACE_TEST_VIEWER_DECODEHELPERS_H

#include "output/DumpTool.h"
#include "reader/TraceReader.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wgtrace::testing {

struct DumpResult {
  std::string Text;
  /// Empty when the trace decoded cleanly.
  std::string Error;
};

/// Feeds \p Bytes to \p Tool; the trace must decode cleanly.
inline void decodeWith(viewer::AnalysisTool &Tool,
                       const std::vector<uint8_t> &Bytes,
                       viewer::RingMode Mode = viewer::RingMode::WrapAware) {
  viewer::TraceFile File = viewer::TraceFile::fromBytes(Bytes);
  viewer::TraceReader Reader(File, Mode);
  viewer::AnalysisTool *Tools[] = {&Tool};
  llvm::Error E = Reader.run(Tools);
  EXPECT_FALSE(E) << llvm::toString(std::move(E));
}

inline DumpResult dump(const std::vector<uint8_t> &Bytes,
                       viewer::DumpOptions Options = {}) {
  DumpResult Result;
  llvm::raw_string_ostream OS(Result.Text);
  viewer::TraceFile File = viewer::TraceFile::fromBytes(Bytes);
  viewer::DumpTool Dump(OS, Options);
  viewer::TraceReader Reader(File, Options.IreeCompat
                                       ? viewer::RingMode::IreeCompat
                                       : viewer::RingMode::WrapAware);
  viewer::AnalysisTool *Tools[] = {&Dump};
  if (llvm::Error E = Reader.run(Tools))
    Result.Error = llvm::toString(std::move(E));
  OS.flush();
  return Result;
}

inline DumpResult dumpCompat(const std::vector<uint8_t> &Bytes) {
  viewer::DumpOptions Options;
  Options.IreeCompat = true;
  return dump(Bytes, Options);
}

} // namespace wgtrace::testing

#endif // WGTRACE_TEST_VIEWER_DECODEHELPERS_H
