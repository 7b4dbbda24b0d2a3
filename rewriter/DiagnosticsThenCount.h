//===- DiagnosticsThenCount.h - "N errors generated." after them -*- C++
//-*-===//
//
// The rewriter collects each file's diagnostics in a buffer (files rewritten
// in parallel print theirs together), but clang prints its closing count
// ("2 errors generated.") straight to stderr: the count came first. This
// action runs the rewrite with the count sent to the same buffer.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_DIAGNOSTICSTHENCOUNT_H
#define WGTRACE_REWRITER_DIAGNOSTICSTHENCOUNT_H

#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"

namespace wgtrace::rewriter {

/// Runs the actions of \p Factory as FrontendActionFactory does, with the
/// compiler's count of diagnostics written to \p Diagnostics, the stream
/// the diagnostics themselves go to.
class DiagnosticsThenCount : public clang::tooling::ToolAction {
public:
  DiagnosticsThenCount(clang::tooling::FrontendActionFactory &Factory,
                       llvm::raw_ostream &Diagnostics)
      : Factory(Factory), Diagnostics(Diagnostics) {}

  bool
  runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                clang::FileManager *Files,
                std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
                clang::DiagnosticConsumer *DiagConsumer) override;

private:
  clang::tooling::FrontendActionFactory &Factory;
  llvm::raw_ostream &Diagnostics;
};

} // namespace wgtrace::rewriter

#endif // WGTRACE_REWRITER_DIAGNOSTICSTHENCOUNT_H
