//===- ReservedStatements.h - One room check per statement ------*- C++ -*-===//
//
// wgtrace-rewrite --reserve-records: before a statement whose records can
// be counted, WGTRACE_RESERVE(n) makes room for all of them with one
// compare of the ring's cursor, and the statement's accesses append
// unchecked (WGTRACE_LOAD_RESERVED_AT and friends, <wgtrace/detail/
// reserve.h>), where every access otherwise compares the cursor against
// the end of the ring's part (docs/RUNTIME.md, "Reserved statements").
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_RESERVEDSTATEMENTS_H
#define WGTRACE_REWRITER_RESERVEDSTATEMENTS_H

namespace clang {
class ASTContext;
} // namespace clang

namespace wgtrace {
namespace rewriter {

class EditSet;

/// Reserves the statements of the main file whose only edits are plain
/// access forms (WGTRACE_LOAD_AT, _STORE_AT, _UPDATE_AT) and which can make
/// no record but theirs: no call, constructor, lambda, statement
/// expression, atomic, OpenMP or macro inside, no access longer than a
/// record's length field, nothing template-dependent, at most
/// kMaxReservedRecords records. A statement qualifies when it is a direct
/// child of a compound statement (an expression, a declaration of local
/// variables or a return), or an expression statement that is the body of
/// a loop or a branch of an if. To be run last, when \p Edits holds every
/// other edit of the file.
void reserveStatements(clang::ASTContext &Ctx, EditSet &Edits);

} // namespace rewriter
} // namespace wgtrace

#endif
