//===- MetadataEmitter.cpp - The module block of a rewritten file ---------===//

#include "MetadataEmitter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;
using namespace llvm;

namespace wgtrace {
namespace rewriter {

std::string escapeCString(StringRef Text) {
  std::string Out;
  raw_string_ostream OS(Out);
  char Previous = 0;
  for (char C : Text) {
    switch (C) {
    case '\\':
      OS << "\\\\";
      break;
    case '"':
      OS << "\\\"";
      break;
    case '\n':
      OS << "\\n";
      break;
    case '\t':
      OS << "\\t";
      break;
    case '\r':
      OS << "\\r";
      break;
    case '?':
      // "??" could start a trigraph in older language modes.
      OS << (Previous == '?' ? "\\?" : "?");
      break;
    default:
      if (static_cast<unsigned char>(C) < 0x20 || C == 0x7f)
        // Three octal digits always end the escape, whatever follows.
        OS << '\\' << format("%03o", static_cast<unsigned char>(C));
      else
        OS << C;
    }
    Previous = C;
  }
  return Out;
}

/// The initializer of F's FunctionInfo.
static std::string functionInfo(const FunctionMeta &F) {
  return "{\"" + escapeCString(F.Name) + "\", \"" + escapeCString(F.Target) +
         "\", \"" + escapeCString(F.Layout) + "\", \"" +
         escapeCString(F.Source) + "\", \"" + escapeCString(F.File) + "\", " +
         std::to_string(F.Line) + ", " + std::to_string(F.Column) + ", " +
         std::to_string(F.Kind) + ", nullptr, 0}";
}

std::string emitSharedModule(const FunctionMeta &Function, StringRef Name) {
  return ("inline const ::wgtrace::detail::FunctionInfo " + Name +
          "functions_[] = {" + functionInfo(Function) +
          "};\ninline ::wgtrace::detail::Module " + Name + "(" + Name +
          "functions_, 1, nullptr, 0);\n")
      .str();
}

std::string emitModuleBlock(ArrayRef<FunctionMeta> Functions,
                            ArrayRef<SiteMeta> Sites, StringRef FilePath) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "#include <wgtrace/instrument.h>\n"
     << "namespace {\n";
  // A zero-length array is not C++: an empty list becomes a null pointer.
  if (!Functions.empty()) {
    OS << "const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {\n";
    for (const FunctionMeta &F : Functions)
      OS << "    " << functionInfo(F) << ",\n";
    OS << "};\n";
  }
  if (!Sites.empty()) {
    OS << "const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {\n";
    for (const SiteMeta &S : Sites)
      OS << "    {\"" << escapeCString(S.Callee) << "\", \""
         << escapeCString(S.Location) << "\"},\n";
    OS << "};\n";
  }
  OS << "::wgtrace::detail::Module wgtrace_module_(";
  if (Functions.empty())
    OS << "nullptr, 0, ";
  else
    OS << "wgtrace_functions_, " << Functions.size() << ", ";
  if (Sites.empty())
    OS << "nullptr, 0";
  else
    OS << "wgtrace_sites_, " << Sites.size();
  OS << ");\n"
     << "} // namespace\n"
     << "#line 1 \"" << escapeCString(FilePath) << "\"\n";
  return Out;
}

std::string describeTarget(const CompilerInstance &CI) {
  std::string Out = CI.getTarget().getTriple().str();
  const CodeGenOptions &CG = CI.getCodeGenOpts();
  const clang::TargetOptions &TO = CI.getTargetOpts();
  const LangOptions &LO = CI.getLangOpts();
  if (CG.OptimizeSize == 1)
    Out += " -Os";
  else if (CG.OptimizeSize == 2)
    Out += " -Oz";
  else
    Out += " -O" + std::to_string(CG.OptimizationLevel);
  // The driver always names a CPU; only a choice the user made is worth
  // showing, and the generic ones are the driver's defaults.
  StringRef CPU = TO.CPU;
  if (!CPU.empty() && CPU != "x86-64" && CPU != "generic")
    Out += (" -march=" + CPU).str();
  for (const std::string &F : TO.FeaturesAsWritten) {
    StringRef Name(F);
    if (Name.consume_front("+"))
      Out += (" -m" + Name).str();
    else if (Name.consume_front("-"))
      Out += (" -mno-" + Name).str();
  }
  if (LO.FastMath)
    Out += " -ffast-math";
  return Out;
}

std::string describeLayout(const FunctionDecl *FD) {
  PrintingPolicy Policy = FD->getASTContext().getPrintingPolicy();
  std::string Out = "(";
  raw_string_ostream OS(Out);
  for (unsigned I = 0, N = FD->getNumParams(); I < N; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    if (I)
      OS << ", ";
    P->getOriginalType().print(OS, Policy, P->getName());
  }
  if (FD->isVariadic())
    OS << (FD->getNumParams() ? ", ..." : "...");
  OS << ")";
  return Out;
}

/// Whether Text ends with an identifier; if so, drops it.
static bool consumeIdentifier(StringRef &Text) {
  size_t N = Text.size();
  while (N > 0 && (isAlnum(Text[N - 1]) || Text[N - 1] == '_'))
    --N;
  if (N == Text.size())
    return false;
  Text = Text.take_front(N);
  return true;
}

/// When the attribute is spelled out, its location is its name (or its
/// namespace, `gnu` in `[[gnu::pure]]`): step back to the `__attribute__((`
/// or `[[` that opens the list, so that the text starts with the whole
/// attribute. An attribute after others in one list (`[[nodiscard, gnu::
/// pure]]`) steps back to the list's opening.
static SourceLocation includeAttributeKeyword(SourceLocation L,
                                              const SourceManager &SM) {
  std::pair<FileID, unsigned> Decomposed = SM.getDecomposedLoc(L);
  unsigned Offset = Decomposed.second;
  StringRef Buffer = SM.getBufferData(Decomposed.first);
  StringRef Before = Buffer.take_front(Offset).rtrim();
  // `gnu::` before the name.
  StringRef Scoped = Before;
  if (Scoped.consume_back("::")) {
    Scoped = Scoped.rtrim();
    if (consumeIdentifier(Scoped))
      Before = Scoped.rtrim();
  }
  if (Before.ends_with(",")) {
    // Somewhere inside a list: back to the nearest opening.
    size_t Square = Before.rfind("[[");
    size_t Round = Before.rfind("((");
    if (Square == StringRef::npos && Round == StringRef::npos)
      return L;
    if (Square != StringRef::npos &&
        (Round == StringRef::npos || Square > Round))
      Before = Before.take_front(Square + 2);
    else
      Before = Before.take_front(Round + 2);
  }
  auto At = [&](StringRef Text) {
    return L.getLocWithOffset(static_cast<int>(Text.size()) -
                              static_cast<int>(Offset));
  };
  if (Before.consume_back("[")) {
    Before = Before.rtrim();
    if (!Before.consume_back("["))
      return L;
    return At(Before);
  }
  if (!Before.consume_back("("))
    return L;
  Before = Before.rtrim();
  if (!Before.consume_back("("))
    return L;
  Before = Before.rtrim();
  if (!Before.consume_back("__attribute__"))
    return L;
  return At(Before);
}

SourceLocation definitionBegin(const FunctionDecl *FD) {
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  SourceLocation Begin = FD->getBeginLoc();
  if (const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate())
    Begin = T->getBeginLoc();
  Begin = SM.getExpansionLoc(Begin);
  // Attributes written before the declaration (WGTRACE_DISPATCH) are not
  // part of the declaration's range.
  for (const Attr *A : FD->attrs()) {
    SourceLocation L = SM.getExpansionLoc(A->getLocation());
    if (L.isValid() && SM.isWrittenInSameFile(L, Begin) &&
        SM.isBeforeInTranslationUnit(L, Begin))
      Begin = includeAttributeKeyword(L, SM);
  }
  return Begin;
}

std::string definitionText(const FunctionDecl *FD) {
  const ASTContext &Ctx = FD->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = SM.getExpansionLoc(FD->getEndLoc());
  CharSourceRange Range =
      CharSourceRange::getTokenRange(definitionBegin(FD), End);
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

} // namespace rewriter
} // namespace wgtrace
