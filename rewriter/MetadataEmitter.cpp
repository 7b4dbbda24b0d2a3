//===- MetadataEmitter.cpp - The module block of a rewritten file ---------===//

#include "MetadataEmitter.h"

#include "MemoryModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
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

/// The initializer of F's FunctionInfo; Params names its ParamInfo slice
/// ("nullptr, 0" for none).
static std::string functionInfo(const FunctionMeta &F, StringRef Params) {
  return "{\"" + escapeCString(F.Name) + "\", \"" + escapeCString(F.Target) +
         "\", \"" + escapeCString(F.Layout) + "\", \"" +
         escapeCString(F.Source) + "\", \"" + escapeCString(F.File) + "\", " +
         std::to_string(F.Line) + ", " + std::to_string(F.Column) + ", " +
         std::to_string(F.Kind) + ", " + Params.str() + "}";
}

/// The initializer of P's ParamInfo.
static std::string paramInfo(const ParamMeta &P) {
  return "{\"" + escapeCString(P.Name) + "\", \"" + escapeCString(P.Type) +
         "\", " + std::to_string(P.Position) + ", " + std::to_string(P.Kind) +
         ", " + std::to_string(P.ElementSize) + ", " +
         (P.HasExtent ? "true" : "false") + "}";
}

std::string emitSharedModule(const FunctionMeta &Function, StringRef Name) {
  std::string Out;
  std::string Params = "nullptr, 0";
  if (!Function.Params.empty()) {
    Out +=
        ("inline const ::wgtrace::detail::ParamInfo " + Name + "params_[] = {")
            .str();
    for (const ParamMeta &P : Function.Params)
      Out += paramInfo(P) + ", ";
    Out += "};\n";
    Params =
        (Name + "params_, " + std::to_string(Function.Params.size())).str();
  }
  Out += ("inline const ::wgtrace::detail::FunctionInfo " + Name +
          "functions_[] = {" + functionInfo(Function, Params) +
          "};\ninline ::wgtrace::detail::Module " + Name + "(" + Name +
          "functions_, 1, nullptr, 0);\n")
             .str();
  return Out;
}

std::string emitModuleBlock(ArrayRef<FunctionMeta> Functions,
                            ArrayRef<SiteMeta> Sites,
                            const ModuleTables &Tables, StringRef FilePath) {
  std::string Out;
  raw_string_ostream OS(Out);
  auto Quoted = [](StringRef Text) {
    return "\"" + escapeCString(Text) + "\"";
  };
  OS << "#include <wgtrace/instrument.h>\n"
     << "namespace {\n";
  // A zero-length array is not C++: an empty list becomes a null pointer.
  // The buffer parameters of every kernel are one array, each kernel's a
  // slice of it.
  std::vector<size_t> ParamStart;
  size_t NumParams = 0;
  for (const FunctionMeta &F : Functions) {
    ParamStart.push_back(NumParams);
    NumParams += F.Params.size();
  }
  if (NumParams) {
    OS << "const ::wgtrace::detail::ParamInfo wgtrace_params_[] = {\n";
    for (const FunctionMeta &F : Functions)
      for (const ParamMeta &P : F.Params)
        OS << "    " << paramInfo(P) << ",\n";
    OS << "};\n";
  }
  if (!Functions.empty()) {
    OS << "const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {\n";
    for (size_t I = 0; I < Functions.size(); ++I) {
      const FunctionMeta &F = Functions[I];
      std::string Params = F.Params.empty()
                               ? "nullptr, 0"
                               : "wgtrace_params_ + " +
                                     std::to_string(ParamStart[I]) + ", " +
                                     std::to_string(F.Params.size());
      OS << "    " << functionInfo(F, Params) << ",\n";
    }
    OS << "};\n";
  }
  if (!Sites.empty()) {
    OS << "const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {\n";
    for (const SiteMeta &S : Sites)
      OS << "    {" << Quoted(S.Callee) << ", " << Quoted(S.Location) << "},\n";
    OS << "};\n";
  }
  if (!Tables.AccessSites.empty()) {
    OS << "const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = "
          "{\n";
    for (const AccessSiteMeta &A : Tables.AccessSites)
      OS << "    {" << Quoted(A.File) << ", " << A.Line << ", " << A.Column
         << ", " << static_cast<unsigned>(A.Kind) << ", " << Quoted(A.Scope)
         << ", " << Quoted(A.Text)
         << (A.Critical                          ? ", " + Quoted(*A.Critical)
             : A.WorkgroupOwned || A.ThreadOwned ? std::string(", nullptr")
                                                 : std::string())
         << (A.ThreadOwned
                 ? (A.WorkgroupOwned ? ", true, true" : ", false, true")
             : A.WorkgroupOwned ? ", true"
                                : "")
         << "},\n";
    OS << "};\n";
  }
  if (!Tables.Untraced.empty()) {
    OS << "const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {\n";
    for (const UntracedMeta &U : Tables.Untraced)
      OS << "    {" << Quoted(U.File) << ", " << U.Line << ", " << U.Column
         << ", " << Quoted(U.Scope) << ", " << Quoted(U.Text) << ", "
         << Quoted(U.Reason) << "},\n";
    OS << "};\n";
  }
  // The words the access macros take the sites' bits from, filled when
  // the module registers.
  if (!Tables.AccessSites.empty())
    OS << "WGTRACE_ACCESS_SITE_TABLE(" << Tables.AccessSites.size() << ")\n";
  OS << "::wgtrace::detail::Module wgtrace_module_(";
  if (Functions.empty())
    OS << "nullptr, 0, ";
  else
    OS << "wgtrace_functions_, " << Functions.size() << ", ";
  if (Sites.empty())
    OS << "nullptr, 0";
  else
    OS << "wgtrace_sites_, " << Sites.size();
  if (!Tables.AccessSites.empty() || !Tables.Untraced.empty()) {
    OS << ", WGTRACE_MODULE_EXTRAS(";
    if (Tables.AccessSites.empty())
      OS << "nullptr, 0, ";
    else
      OS << "wgtrace_access_sites_, " << Tables.AccessSites.size() << ", ";
    if (Tables.Untraced.empty())
      OS << "nullptr, 0, ";
    else
      OS << "wgtrace_untraced_, " << Tables.Untraced.size() << ", ";
    OS << (Tables.AccessSites.empty() ? "nullptr" : "wgtrace_access_site_bits_")
       << ")";
  }
  OS << ");\n";
  // Calls through pointers: WGTRACE_INDIRECT_CALL(n) names entry n.
  if (!Tables.IndirectCalls.empty()) {
    OS << "const ::wgtrace::detail::IndirectCallInfo "
          "wgtrace_indirect_call_info_[] = {\n";
    for (const IndirectCallMeta &C : Tables.IndirectCalls)
      OS << "    {" << Quoted(C.File) << ", " << C.Line << ", " << C.Column
         << ", " << Quoted(C.Scope) << ", " << Quoted(C.Text) << "},\n";
    OS << "};\n"
       << "::wgtrace::detail::IndirectCalls wgtrace_indirect_calls_("
          "wgtrace_indirect_call_info_, "
       << Tables.IndirectCalls.size() << ");\n";
  }
  // The critical sections the loops enter by name, for the readers.
  if (!Tables.CriticalSections.empty()) {
    OS << "const char *const wgtrace_critical_section_names_[] = {";
    for (const std::string &Name : Tables.CriticalSections)
      OS << Quoted(Name)
         << (&Name == &Tables.CriticalSections.back() ? "" : ", ");
    OS << "};\n"
       << "::wgtrace::detail::OmpCriticalNames wgtrace_critical_sections_("
          "wgtrace_critical_section_names_, "
       << Tables.CriticalSections.size() << ");\n";
  }
  OS << "} // namespace\n"
     << "#line 1 \"" << escapeCString(FilePath) << "\"\n";
  return Out;
}

std::string emitKernelInstances(ArrayRef<InstanceMeta> Instances) {
  if (Instances.empty())
    return "";
  std::string Out = "\nnamespace {\n";
  std::vector<size_t> ParamStart;
  size_t NumParams = 0;
  for (const InstanceMeta &I : Instances) {
    ParamStart.push_back(NumParams);
    NumParams += I.Function.Params.size();
  }
  if (NumParams) {
    Out +=
        "const ::wgtrace::detail::ParamInfo wgtrace_instance_params_[] = {\n";
    for (const InstanceMeta &I : Instances)
      for (const ParamMeta &P : I.Function.Params)
        Out += "    " + paramInfo(P) + ",\n";
    Out += "};\n";
  }
  Out += "const ::wgtrace::detail::InstanceInfo wgtrace_instances_[] = {\n";
  for (size_t I = 0; I < Instances.size(); ++I) {
    const InstanceMeta &X = Instances[I];
    std::string Params = X.Function.Params.empty()
                             ? "nullptr, 0"
                             : "wgtrace_instance_params_ + " +
                                   std::to_string(ParamStart[I]) + ", " +
                                   std::to_string(X.Function.Params.size());
    Out += "    {&::wgtrace::detail::kInstanceId<" + X.Tag + ">, " +
           std::to_string(X.Pattern) + ", " + functionInfo(X.Function, Params) +
           "},\n";
  }
  Out += "};\n";
  // One registration per run of instances of one module.
  for (size_t Begin = 0, N = 0; Begin < Instances.size(); ++N) {
    size_t End = Begin;
    while (End < Instances.size() &&
           Instances[End].Module == Instances[Begin].Module)
      ++End;
    Out += "::wgtrace::detail::KernelInstances wgtrace_instance_registration_" +
           std::to_string(N) + "_(" + Instances[Begin].Module +
           ", wgtrace_instances_ + " + std::to_string(Begin) + ", " +
           std::to_string(End - Begin) + ");\n";
    Begin = End;
  }
  return Out + "} // namespace\n";
}

std::string emitIndirectTargets(ArrayRef<IndirectTargetMeta> Targets) {
  if (Targets.empty())
    return "";
  // After everything the file declares, on lines of their own after its
  // last: every original line keeps its number.
  std::string Out = "\nnamespace {\n"
                    "const ::wgtrace::detail::IndirectTarget "
                    "wgtrace_indirect_targets_[] = {\n";
  for (const IndirectTargetMeta &T : Targets) {
    std::string Partial = T.Partial ? ", /*Partial=*/true" : "";
    if (T.Member)
      Out += "    ::wgtrace::detail::memberTarget<" + T.Type + ">(&" + T.Plain +
             Partial + "),\n";
    else
      Out += "    ::wgtrace::detail::functionTarget<" + T.Type + ">(&" +
             T.Plain + ", &" + T.Instrumented + Partial + "),\n";
  }
  Out += "};\n"
         "const ::wgtrace::detail::IndirectTargets "
         "wgtrace_indirect_registration_(wgtrace_indirect_targets_, " +
         std::to_string(Targets.size()) + ");\n} // namespace\n";
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
  // Only the features that make the target differ from its CPU: for
  // -march=native the driver writes out every feature of the host (about a
  // hundred), which say nothing -march=<cpu> does not. What every CPU of
  // the triple has (x86-64's cmov, and its 64-bit mode) is no difference
  // either, though the CPU's own list may leave it out.
  const llvm::Triple &Triple = CI.getTarget().getTriple();
  llvm::StringMap<bool> OfCPU, OfEveryCPU;
  CI.getTarget().initFeatureMap(OfCPU, CI.getDiagnostics(), CPU, {});
  if (Triple.getArch() == llvm::Triple::x86_64) {
    CI.getTarget().initFeatureMap(OfEveryCPU, CI.getDiagnostics(), "x86-64",
                                  {});
    OfEveryCPU["64bit"] = true;
  }
  for (const std::string &F : TO.FeaturesAsWritten) {
    StringRef Name(F);
    if (Name.consume_front("+")) {
      if (!OfCPU.lookup(Name) && !OfEveryCPU.lookup(Name))
        Out += (" -m" + Name).str();
    } else if (Name.consume_front("-")) {
      if (OfCPU.lookup(Name))
        Out += (" -mno-" + Name).str();
    }
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

namespace {

/// How one parameter's type makes it a buffer parameter, if it does.
struct BufferKind {
  /// fb::ParamKind.
  unsigned Kind;
  unsigned ElementSize;
  /// For an array parameter: its bound.
  uint64_t Bound = 0;
};

/// The member function of RD (or a base) named Name that takes no
/// arguments, if any.
const CXXMethodDecl *nullaryMethod(const CXXRecordDecl *RD, StringRef Name) {
  if (!RD || !RD->hasDefinition())
    return nullptr;
  RD = RD->getDefinition();
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getName() == Name && M->getMinRequiredArguments() == 0 &&
        !M->isDeleted() && M->getAccess() != AS_private &&
        M->getAccess() != AS_protected)
      return M;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (B.getAccessSpecifier() == AS_public)
      if (const CXXMethodDecl *M =
              nullaryMethod(B.getType()->getAsCXXRecordDecl(), Name))
        return M;
  return nullptr;
}

unsigned sizeOf(const ASTContext &Ctx, QualType T) {
  if (T.isNull() || T->isDependentType() || T->isIncompleteType() ||
      T->isVoidType() || T->isFunctionType())
    return 0;
  return static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
}

/// The element type of a class with data() returning a pointer and
/// size() returning an integer (std::span, std::vector, std::array, a
/// user's view), if T is one.
std::optional<QualType> contiguousElement(QualType T) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  const CXXMethodDecl *Data = nullaryMethod(RD, "data");
  const CXXMethodDecl *Size = nullaryMethod(RD, "size");
  if (!Data || !Size || !Data->getReturnType()->isPointerType() ||
      !Size->getReturnType()->isIntegerType())
    return std::nullopt;
  return Data->getReturnType()->getPointeeType();
}

/// The buffer kind of a parameter of type T (as written: arrays not yet
/// decayed), or nothing when it is not a buffer parameter.
std::optional<BufferKind> bufferKind(const ASTContext &Ctx, QualType T) {
  if (MemoryModel::isWorkgroupType(T.getNonReferenceType()))
    return std::nullopt;
  if (const auto *Array = Ctx.getAsConstantArrayType(T))
    return BufferKind{3, sizeOf(Ctx, Array->getElementType()),
                      Array->getSize().getZExtValue()};
  if (const auto *Array = Ctx.getAsArrayType(T))
    return BufferKind{0, sizeOf(Ctx, Array->getElementType())};
  if (T->isPointerType()) {
    QualType Pointee = T->getPointeeType();
    if (Pointee->isFunctionType())
      return std::nullopt;
    return BufferKind{0, sizeOf(Ctx, Pointee)};
  }
  if (T->isReferenceType()) {
    QualType Referee = T.getNonReferenceType();
    if (Referee->isFunctionType())
      return std::nullopt;
    if (Referee->isDependentType())
      return BufferKind{1, 0};
    if (std::optional<QualType> Element = contiguousElement(Referee))
      return BufferKind{4, sizeOf(Ctx, *Element)};
    return BufferKind{1, sizeOf(Ctx, Referee)};
  }
  if (!T->isDependentType())
    if (std::optional<QualType> Element = contiguousElement(T))
      return BufferKind{2, sizeOf(Ctx, *Element)};
  return std::nullopt;
}

} // namespace

/// The argument of WGTRACE_BUFFERS that records a buffer of kind Kind
/// named Name.
static std::string bufferArgument(const std::string &Name,
                                  const BufferKind &Kind) {
  switch (Kind.Kind) {
  case 0:
    return Name;
  case 1:
    return "::wgtrace::detail::objectBuffer(" + Name + ")";
  case 3:
    return "::wgtrace::detail::arrayBuffer<" + std::to_string(Kind.Bound) +
           ">(" + Name + ")";
  default:
    return "::wgtrace::detail::rangeBuffer(" + Name + ")";
  }
}

std::vector<ParamMeta>
describeBufferParams(const FunctionDecl *Written,
                     ArrayRef<const FunctionDecl *> Bodies) {
  const ASTContext &Ctx = Written->getASTContext();
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  std::vector<ParamMeta> Out;
  // A VALUE record's ordinal has 8 bits.
  constexpr size_t MostParams = 256;
  for (unsigned I = 0; I < Written->getNumParams(); ++I) {
    const ParmVarDecl *P = Written->getParamDecl(I);
    // Unnamed parameters cannot be spelled in the prologue; a pack
    // expands to several.
    if (P->getName().empty() || P->isParameterPack())
      continue;
    std::optional<BufferKind> Kind;
    if (Bodies.empty()) {
      Kind = bufferKind(Ctx, P->getOriginalType());
      // A class that depends on a template parameter may or may not have
      // data() and size(): only instantiations say.
      if (Kind && Kind->Kind == 2)
        Kind.reset();
    } else {
      bool Agree = true;
      for (const FunctionDecl *Body : Bodies) {
        if (I >= Body->getNumParams()) {
          Agree = false;
          break;
        }
        std::optional<BufferKind> K =
            bufferKind(Ctx, Body->getParamDecl(I)->getOriginalType());
        if (Body == Bodies.front()) {
          Kind = K;
        } else if (K.has_value() != Kind.has_value() ||
                   (K && (K->Kind != Kind->Kind || K->Bound != Kind->Bound))) {
          Agree = false;
        } else if (K && K->ElementSize != Kind->ElementSize) {
          // Instantiations of other element types: no one size.
          Kind->ElementSize = 0;
        }
      }
      if (!Agree)
        Kind.reset();
    }
    if (!Kind || Out.size() == MostParams)
      continue;
    ParamMeta M;
    M.Name = P->getName().str();
    M.Type = P->getOriginalType().getAsString(Policy);
    M.Position = I;
    M.Kind = Kind->Kind;
    M.ElementSize = Kind->ElementSize;
    M.HasExtent = Kind->Kind != 0;
    M.Argument = bufferArgument(M.Name, *Kind);
    Out.push_back(std::move(M));
  }
  return Out;
}

std::vector<ParamMeta> describeSharedBuffers(ArrayRef<const VarDecl *> Shared) {
  std::vector<ParamMeta> Out;
  constexpr size_t MostParams = 256;
  for (const VarDecl *VD : Shared) {
    if (Out.size() == MostParams || VD->getName().empty())
      break;
    const ASTContext &Ctx = VD->getASTContext();
    QualType T = VD->getType();
    std::optional<BufferKind> Kind = bufferKind(Ctx, T);
    // A shared scalar or object is a buffer of its own bytes.
    if (!Kind && !T->isDependentType() && !T->isFunctionType())
      Kind = BufferKind{1, sizeOf(Ctx, T)};
    if (!Kind || (Kind->Kind == 0 && Ctx.getAsArrayType(T)))
      continue;
    ParamMeta M;
    M.Name = VD->getName().str();
    M.Type = T.getAsString(Ctx.getPrintingPolicy());
    M.Position = static_cast<unsigned>(Out.size());
    M.Kind = Kind->Kind;
    M.ElementSize = Kind->ElementSize;
    M.HasExtent = Kind->Kind != 0;
    M.Argument = bufferArgument(M.Name, *Kind);
    Out.push_back(std::move(M));
  }
  return Out;
}

std::string bufferPrologue(ArrayRef<ParamMeta> Params) {
  if (Params.empty())
    return "";
  std::string Out = " WGTRACE_BUFFERS(";
  for (const ParamMeta &P : Params) {
    if (&P != &Params.front())
      Out += ", ";
    Out += P.Argument;
  }
  return Out + ");";
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
