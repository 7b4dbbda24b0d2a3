//===- DeletedObjects.h - What delete does to its object -------*- C++ -*-===//
//
// `delete p` of a class with a virtual destructor reads p's virtual table
// pointer to find the destructor to run (the rewriter records it, as a
// virtual call's), and the destructors that run may touch the object
// itself, with no expression of the kernel to wrap: a dynamic class's
// destructor stores its virtual table pointer before its body (unless the
// compiler can skip it: an empty body and members without destructors),
// and a destructor that only touches the object's own fields is not
// instrumented (bookkeeping), nor is one defined in a project header.
// Those are reported at the delete-expression, with the destructor and
// why.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_DELETEDOBJECTS_H
#define WGTRACE_REWRITER_DELETEDOBJECTS_H

#include "clang/AST/ExprCXX.h"

#include <string>

namespace wgtrace {
namespace rewriter {

/// Whether `delete` E reads its object's virtual table pointer: a virtual
/// destructor the compiler cannot call directly (not an array's, not of a
/// final class).
bool deleteReadsTablePointer(const clang::CXXDeleteExpr *E);

/// Why what the destructors E may run do to the object goes unrecorded
/// (the untraced table's reason), or "" when they touch none of it.
std::string deletedObjectUntraced(const clang::CXXDeleteExpr *E,
                                  clang::ASTContext &Ctx);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_DELETEDOBJECTS_H
