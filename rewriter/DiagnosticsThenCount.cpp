//===- DiagnosticsThenCount.cpp - "N errors generated." after them --------===//

#include "DiagnosticsThenCount.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"

namespace wgtrace::rewriter {

bool DiagnosticsThenCount::runInvocation(
    std::shared_ptr<clang::CompilerInvocation> Invocation,
    clang::FileManager *Files,
    std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
    clang::DiagnosticConsumer *DiagConsumer) {
  clang::CompilerInstance Compiler(std::move(PCHContainerOps));
  Compiler.setInvocation(std::move(Invocation));
  Compiler.setFileManager(Files);
  // Declared after Compiler, so destroyed before it: an action may refer
  // to the compiler's members until it is gone.
  std::unique_ptr<clang::FrontendAction> Action = Factory.create();
  Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
  if (!Compiler.hasDiagnostics())
    return false;
  Compiler.setVerboseOutputStream(Diagnostics);
  Compiler.createSourceManager(*Files);
  bool Success = Compiler.ExecuteAction(*Action);
  Files->clearStatCache();
  return Success;
}

} // namespace wgtrace::rewriter
