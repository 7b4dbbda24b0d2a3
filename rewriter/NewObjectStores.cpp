//===- NewObjectStores.cpp - What new writes to its object ---------------===//

#include "NewObjectStores.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/CXXInheritance.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"

#include <optional>

using namespace clang;

namespace wgtrace {
namespace rewriter {

namespace {

/// Whether E computes its value without reading memory: from constants,
/// by-value parameters of the constructor (its own stack, which no trace
/// holds), enumerators, addresses and `this`. A load among the stores
/// would fall between two of them, which one record after the
/// new-expression cannot place.
bool readsNoMemory(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, GNUNullExpr, clang::StringLiteral, CXXThisExpr,
          ImplicitValueInitExpr>(E))
    return true;
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return readsNoMemory(Default->getExpr());
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
    return readsNoMemory(Default->getExpr());
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = Cast->getSubExpr();
    if (Cast->getCastKind() != CK_LValueToRValue)
      return readsNoMemory(Sub);
    // A read: of a by-value parameter only.
    const auto *Ref = dyn_cast<DeclRefExpr>(Sub->IgnoreParens());
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    return Param && !Param->getType()->isReferenceType();
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = Ref->getDecl();
    // An lvalue named, not read (a read goes through the cast above).
    return isa<EnumConstantDecl, FunctionDecl>(D) ||
           (isa<ParmVarDecl>(D) && !D->getType()->isReferenceType());
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    return !Unary->isIncrementDecrementOp() && Unary->getOpcode() != UO_Deref &&
           readsNoMemory(Unary->getSubExpr());
  if (const auto *Binary = dyn_cast<BinaryOperator>(E))
    return !Binary->isAssignmentOp() && !Binary->isCompoundAssignmentOp() &&
           readsNoMemory(Binary->getLHS()) && readsNoMemory(Binary->getRHS());
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
    return readsNoMemory(Cond->getCond()) &&
           readsNoMemory(Cond->getTrueExpr()) &&
           readsNoMemory(Cond->getFalseExpr());
  return false;
}

class StoreWalker {
public:
  StoreWalker(ASTContext &Ctx, std::vector<StoredRange> &Out)
      : Ctx(Ctx), Out(Out) {}

  /// The stores of Construct building an object at Offset; "" or why not.
  /// The new-expression's own arguments are evaluated before any store (their
  /// loads are recorded where they are written); a base's or a member's
  /// (Nested) between the stores of the constructor that builds them.
  std::string construction(const CXXConstructExpr *Construct, int64_t Offset,
                           bool Nested) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    const CXXRecordDecl *Class = Ctor->getParent();
    std::string Name = "'" + Ctor->getQualifiedNameAsString() + "'";
    if (Construct->requiresZeroInitialization())
      return "it zero-fills the object before " + Name + " runs";
    for (const Expr *Arg : Construct->arguments())
      if (Nested && !readsNoMemory(Arg))
        return "the arguments of " + Name +
               " are not only constants and values of the caller's own "
               "stack";
    if (Ctor->isTrivial()) {
      // A default construction writes nothing; a copy or move writes the
      // whole object (its source's read is recorded where it is written).
      if (!Ctor->isDefaultConstructor())
        Out.push_back(
            {Offset,
             Ctx.getTypeSizeInChars(Ctx.getRecordType(Class)).getQuantity()});
      return "";
    }
    const FunctionDecl *Def = nullptr;
    if (!Ctor->isDefined(Def) || !Def->getBody())
      return Name + " is not defined in this file";
    const auto *Defined = cast<CXXConstructorDecl>(Def);
    if (Defined->isDelegatingConstructor())
      return Name + " delegates to another constructor";
    if (Class->getNumVBases() > 0)
      return "it has a virtual base class, whose place is known only at run "
             "time";
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(Class);
    bool TablePointer = Class->isDynamicClass();
    for (const CXXCtorInitializer *Init : Defined->inits()) {
      const Expr *Value = Init->getInit();
      if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Value))
        Value = Cleanups->getSubExpr();
      if (Init->isBaseInitializer()) {
        const CXXRecordDecl *BaseClass =
            Init->getBaseClass()->getAsCXXRecordDecl();
        const auto *BaseConstruct = dyn_cast<CXXConstructExpr>(Value);
        if (!BaseClass || !BaseConstruct)
          return "the base class of " + Name +
                 " is initialized without a constructor";
        if (BaseClass->isDynamicClass() && BaseClass != Layout.getPrimaryBase())
          return "its class has more than one virtual table pointer";
        std::string Why = construction(
            BaseConstruct,
            Offset + Layout.getBaseClassOffset(BaseClass).getQuantity(),
            /*Nested=*/true);
        if (!Why.empty())
          return Why;
        continue;
      }
      // The compiler stores the virtual table pointer once the bases are
      // built, before the members.
      if (TablePointer) {
        tablePointer(Offset);
        TablePointer = false;
      }
      std::string Why = member(Init, Value, Name, Layout, Offset);
      if (!Why.empty())
        return Why;
    }
    if (TablePointer)
      tablePointer(Offset);
    return body(Defined, Name, Offset);
  }

private:
  void tablePointer(int64_t Offset) {
    Out.push_back(
        {Offset, Ctx.getTypeSizeInChars(Ctx.VoidPtrTy).getQuantity()});
  }

  std::string member(const CXXCtorInitializer *Init, const Expr *Value,
                     const std::string &Name, const ASTRecordLayout &Layout,
                     int64_t Offset) {
    const FieldDecl *Field = Init->getMember();
    if (!Field)
      return Name + " initializes a member of an anonymous union or struct";
    if (Field->isBitField())
      return Name + " initializes the bit-field '" + Field->getNameAsString() +
             "'";
    int64_t At =
        Offset + Ctx
                     .toCharUnitsFromBits(static_cast<int64_t>(
                         Layout.getFieldOffset(Field->getFieldIndex())))
                     .getQuantity();
    QualType T = Field->getType();
    if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(Value))
      Value = Default->getExpr();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value))
      return construction(Construct, At, /*Nested=*/true);
    if (!T->isScalarType())
      return Name + " initializes the member '" + Field->getNameAsString() +
             "', which is not a number, a pointer or an object built by a "
             "constructor";
    if (!readsNoMemory(Value))
      return Name + " initializes '" + Field->getNameAsString() +
             "' from more than constants and values of its own stack";
    Out.push_back({At, Ctx.getTypeSizeInChars(T).getQuantity()});
    return "";
  }

  /// The body's stores: assignments of values of its own stack to scalar
  /// fields of the object (its class's or a base's), `value = v;`, and
  /// nothing else.
  std::string body(const CXXConstructorDecl *Ctor, const std::string &Name,
                   int64_t Offset) {
    const auto *Block = dyn_cast<CompoundStmt>(Ctor->getBody());
    if (!Block)
      return Name + " has a function try block";
    for (const Stmt *S : Block->body()) {
      if (isa<NullStmt>(S))
        continue;
      const auto *Assign = dyn_cast<BinaryOperator>(S);
      const auto *Target =
          Assign && Assign->getOpcode() == BO_Assign
              ? dyn_cast<MemberExpr>(Assign->getLHS()->IgnoreParens())
              : nullptr;
      const auto *Field =
          Target ? dyn_cast<FieldDecl>(Target->getMemberDecl()) : nullptr;
      std::optional<int64_t> At =
          Field ? fieldOffset(Ctor->getParent(), Field) : std::nullopt;
      if (!At || !isa<CXXThisExpr>(Target->getBase()->IgnoreParenImpCasts()) ||
          Field->isBitField() || !Field->getType()->isScalarType() ||
          !readsNoMemory(Assign->getRHS()))
        return "the body of " + Name +
               " does more than assign constants and values of its own stack "
               "to the object's fields";
      Out.push_back({Offset + *At,
                     Ctx.getTypeSizeInChars(Field->getType()).getQuantity()});
    }
    return "";
  }

  /// Where Field is in an object of Class: a field of the class or of a
  /// base it holds at a fixed offset (`op_name = '+'` in a constructor of
  /// a class derived from the one declaring op_name); none through a
  /// virtual base.
  std::optional<int64_t> fieldOffset(const CXXRecordDecl *Class,
                                     const FieldDecl *Field) {
    const auto *Declaring = dyn_cast<CXXRecordDecl>(Field->getParent());
    if (!Declaring)
      return std::nullopt;
    int64_t Base = 0;
    if (Declaring->getCanonicalDecl() != Class->getCanonicalDecl()) {
      CXXBasePaths Paths;
      if (!Class->isDerivedFrom(Declaring, Paths))
        return std::nullopt;
      for (const CXXBasePathElement &Step : Paths.front()) {
        if (Step.Base->isVirtual())
          return std::nullopt;
        Base +=
            Ctx.getASTRecordLayout(Step.Class)
                .getBaseClassOffset(Step.Base->getType()->getAsCXXRecordDecl())
                .getQuantity();
      }
    }
    return Base + Ctx
                      .toCharUnitsFromBits(static_cast<int64_t>(
                          Ctx.getASTRecordLayout(Declaring).getFieldOffset(
                              Field->getFieldIndex())))
                      .getQuantity();
  }

  ASTContext &Ctx;
  std::vector<StoredRange> &Out;
};

/// The stores of a braced list that builds the new object: one per
/// element of an array of numbers or pointers (`new float[1]{a[8]}`), one
/// per field of a struct of them (`new Pt{a[0], 2}`), in order, each once
/// its value is computed. Recorded after the object is built, they are
/// in the compiler's order when no value but the first reads memory.
std::string listStores(const CXXNewExpr *E, const InitListExpr *List,
                       ASTContext &Ctx, std::vector<StoredRange> &Stores) {
  const char *Why = "it initializes the object it makes from a braced list "
                    "whose values after the first read memory, or that does "
                    "not give every element or field its value";
  for (unsigned I = 1; I < List->getNumInits(); ++I)
    if (!readsNoMemory(List->getInit(I)))
      return Why;
  QualType T = E->getAllocatedType();
  if (E->isArray()) {
    std::optional<const Expr *> Size = E->getArraySize();
    std::optional<llvm::APSInt> Count =
        Size && *Size ? (*Size)->getIntegerConstantExpr(Ctx) : std::nullopt;
    if (!T->isScalarType() || !Count || *Count != List->getNumInits())
      return Why;
    int64_t Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
    for (unsigned I = 0; I < List->getNumInits(); ++I)
      Stores.push_back({static_cast<int64_t>(I) * Bytes, Bytes});
    return "";
  }
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || RD->isUnion() || RD->getNumBases() > 0 ||
      List->getNumInits() != static_cast<unsigned>(std::distance(
                                 RD->field_begin(), RD->field_end())))
    return Why;
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
  for (const FieldDecl *Field : RD->fields()) {
    if (Field->isBitField() || !Field->getType()->isScalarType())
      return Why;
    Stores.push_back(
        {Ctx.toCharUnitsFromBits(static_cast<int64_t>(Layout.getFieldOffset(
                                     Field->getFieldIndex())))
             .getQuantity(),
         Ctx.getTypeSizeInChars(Field->getType()).getQuantity()});
  }
  return "";
}

} // namespace

std::string newObjectStores(const CXXNewExpr *E, ASTContext &Ctx,
                            std::vector<StoredRange> &Stores) {
  const Expr *Init = E->getInitializer();
  if (!Init)
    return "";
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Init))
    Init = Cleanups->getSubExpr();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init)) {
    // Trivial default construction of each element writes nothing.
    if (E->isArray()) {
      if (Construct->getConstructor()->isTrivial() &&
          !Construct->requiresZeroInitialization())
        return "";
      return "it builds the elements of an array";
    }
    return StoreWalker(Ctx, Stores)
        .construction(Construct, 0,
                      /*Nested=*/false);
  }
  QualType T = E->getAllocatedType();
  if (const auto *List = dyn_cast<InitListExpr>(Init);
      List && (E->isArray() || !T->isScalarType()))
    return listStores(E, List, Ctx, Stores);
  if (E->isArray() || !T->isScalarType())
    return "it initializes the object it makes from a braced list";
  // `new int(a[0])`: the value's loads are recorded where they are
  // written, before the one store.
  Stores.push_back({0, Ctx.getTypeSizeInChars(T).getQuantity()});
  return "";
}

} // namespace rewriter
} // namespace wgtrace
