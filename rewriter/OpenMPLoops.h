//===- OpenMPLoops.h - OpenMP worksharing loops as dispatches ---*- C++ -*-===//
//
// With --openmp, every OpenMP worksharing loop of the main file (`omp for`,
// `omp parallel for`, their `simd` forms, with collapse and any schedule),
// and of the project headers' functions that the main file uses (traced in
// the functions' copies, HelperCloner.h), is a dispatch site: each execution of
// the loop a launch, each iteration of the collapsed nest a workgroup whose id
// is its iteration indices. This part finds the loops, reads their canonical
// form (lower bound, bound, comparison and step of each loop of the nest) and
// decides which variables the iterations share (memory of the trace) and which
// are their own (the loop's private, firstprivate, lastprivate, reduction and
// linear copies, the loop variables, what the body or the thread's region
// declares). The other constructs that run user code in parallel
// (regions without a loop, sections, tasks, target, teams, ordered) are
// found too, to be reported as not traced.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_OPENMPLOOPS_H
#define WGTRACE_REWRITER_OPENMPLOOPS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// One instance of a loop's AST: the loop of a function, or of one
/// instantiation of a function template.
struct OmpLoopInstance {
  const clang::OMPLoopDirective *Directive = nullptr;
  /// The OpenMP directives it is nested in, in the same function,
  /// outermost first.
  std::vector<const clang::OMPExecutableDirective *> Enclosing;
};

/// A worksharing loop written in the main file (or in a project header).
struct OmpLoop {
  std::vector<OmpLoopInstance> Instances;
  /// The function it is written in (as written: a template's pattern).
  const clang::FunctionDecl *Function = nullptr;
  /// Only dependent instances: a template never instantiated.
  bool OnlyDependent = false;
};

/// A construct that runs user code in parallel and is not traced.
struct OmpUntracedConstruct {
  clang::SourceLocation Loc;
  /// "'#pragma omp task'".
  std::string What;
  std::string Reason;
  const clang::FunctionDecl *Function = nullptr;
};

/// Where a parallel region's statement begins and ends: a block's `{`
/// (End invalid), or a statement's first character and the end of its `;`.
struct OmpRegionStatement {
  clang::SourceLocation Begin;
  clang::SourceLocation End;
};

struct FoundOpenMP {
  /// In source order.
  std::vector<OmpLoop> Loops;
  std::vector<OmpUntracedConstruct> Untraced;
  /// The worksharing loops of the functions of project headers (not of
  /// system headers), in the order of the translation unit: traced in the
  /// copies of the functions that the main file uses, untraced otherwise.
  std::vector<OmpLoop> HeaderLoops;
  /// The untraced constructs of those functions, each with the reason
  /// that holds in a copy of its function (none for a region that only
  /// runs loops, untraced only where its function is not copied).
  std::vector<OmpUntracedConstruct> HeaderUntraced;
  /// The statement of each `#pragma omp parallel` region of the main file,
  /// where each thread notes the frame it runs the region in
  /// (WGTRACE_OMP_REGION): below it, the thread's stack is its own.
  std::vector<OmpRegionStatement> Regions;
};

/// The worksharing loops and untraced constructs of the main file, outside
/// kernels (whose bodies are traced as they are), and those of the project
/// headers it includes.
FoundOpenMP findOpenMP(clang::ASTContext &Ctx);

/// Why a loop or construct of a project header is not traced when its
/// function is not copied into the main file.
extern const char *const kOmpInHeaderReason;

/// Whether K is a worksharing loop wgtrace traces as a dispatch.
bool isTracedOmpLoop(clang::OpenMPDirectiveKind K);
/// Whether K runs user code in parallel in a way wgtrace does not trace
/// (a construct of its own inside a traced loop's body is left out of
/// it and reported).
bool isUntracedOmpConstruct(clang::OpenMPDirectiveKind K);

/// One loop of a collapsed nest in canonical form:
/// `for (Var = Lower; Var <Compare> Bound; Var += Step)`.
struct OmpLoopLevel {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Lower = nullptr;
  const clang::Expr *Bound = nullptr;
  /// Null for ++/--; its text is negated when Negate (`-=`, `--`).
  const clang::Expr *Step = nullptr;
  bool Negate = false;
  /// ::wgtrace::detail::OmpCompare's enumerator.
  const char *Compare = "Less";
};

/// The collapsed nest of D in canonical form, outermost first, and the
/// innermost loop's body; on failure, Why says why it cannot be traced.
struct OmpNest {
  std::vector<OmpLoopLevel> Levels;
  const clang::Stmt *Body = nullptr;
  std::string Why;
};
OmpNest analyzeNest(const clang::OMPLoopDirective *D, clang::ASTContext &Ctx);

/// The variables of the enclosing function (locals, parameters by value)
/// that the iterations of Instance share, in order of first use in Body:
/// memory of the trace. Everything else of local storage the body names is
/// the iteration's or its thread's own.
std::vector<const clang::VarDecl *>
sharedVariables(const OmpLoopInstance &Instance, const OmpNest &Nest,
                const clang::SourceManager &SM);

/// The variables of static storage (globals, static locals) that the
/// loop's clauses, or those of the directives around it up to its parallel
/// region, make each thread's own (private, firstprivate, lastprivate,
/// reduction, linear; default(private) on the region): in the body they
/// name the thread's copy, not memory the iterations share.
llvm::DenseSet<const clang::VarDecl *>
privatizedStatics(const OmpLoopInstance &Instance, const OmpNest &Nest);

/// A `#pragma` line of a file, as the rewriter replaces it with a
/// `_Pragma` operator that code can precede on the same line.
struct PragmaLine {
  /// [Begin, End) of the directive: from its `#` to the end of its last
  /// line (without the newline).
  unsigned Begin = 0;
  unsigned End = 0;
  /// What follows `pragma` (`omp parallel for ...`), comments left out,
  /// line continuations kept.
  std::string Directive;
  /// The comments the directive's line had, to keep after the operator.
  std::string Comment;
};
/// The pragma line whose directive begins at Loc; nothing when Loc is not
/// a `#pragma` written in File (a `_Pragma`, a macro).
std::optional<PragmaLine> pragmaLine(clang::SourceLocation Loc,
                                     const clang::SourceManager &SM,
                                     clang::FileID File);
/// A directive written with the `_Pragma` operator, directly or through a
/// macro (`OMP_FOR(collapse(2))`, as the Parallel Research Kernels write
/// them): [Begin, End) of the operator or of the macro's invocation in the
/// file, which holds the whole directive and nothing of the loop.
struct PragmaInvocation {
  unsigned Begin = 0;
  unsigned End = 0;
};
/// The invocation that writes D, whose loop statement is Loop; nothing when
/// D is a `#pragma` line, or when its invocation is not one of File's own
/// that ends before Loop begins.
std::optional<PragmaInvocation>
pragmaInvocation(const clang::OMPExecutableDirective *D,
                 const clang::Stmt *Loop, const clang::SourceManager &SM,
                 const clang::LangOptions &LO, clang::FileID File);
/// `_Pragma("<Directive><Extra>")`, as a string literal holds it.
std::string pragmaOperator(llvm::StringRef Directive, llvm::StringRef Extra);
/// The offset just after statement S in File: after its closing brace, or
/// after the `;` that ends it.
std::optional<unsigned> statementEnd(const clang::Stmt *S,
                                     const clang::SourceManager &SM,
                                     const clang::LangOptions &LO,
                                     clang::FileID File);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_OPENMPLOOPS_H
