// `delete p` of a class with a virtual destructor reads p's virtual table
// pointer (when p is not null) to find the destructor: recorded at a site
// of kind Call naming the delete-expression. The destructors it may run
// (the class's, and with a virtual one every derived class's, then their
// bases') may touch the object with no expression to wrap: a dynamic
// class's destructor stores the table pointer before a body that is not
// empty, one defined in a header is not instrumented, one touching only
// its own fields is bookkeeping. The delete-expression is reported then,
// naming the destructor (Prolangs-C++ trees.cpp's `delete nodePtr` of a
// tree of RealNode, UnaryNode and BinaryNode went unreported).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "virtual-base.h"

struct Node {
  virtual ~Node() {}
  virtual float value() const { return 0.0f; }
};
struct Leaf : Node {
  float v;
  ~Leaf() override { v = 0.0f; }
};
struct Owner {
  int *data;
  ~Owner() { delete data; }
};
struct Plain {
  int x;
};
struct Sealed final : Node {
  ~Sealed() override {}
};
struct Quiet {
  virtual ~Quiet() = default;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Node **nodes,
                        Owner **owners, Plain **plain, Sealed **sealed,
                        Quiet **quiet, Base **bases) {
  unsigned i = wg.id[0];
  delete nodes[i];
  // CHECK: delete ::wgtrace::detail::deletedTableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), WGTRACE_LOAD_AT({{[0-9]+}}, nodes[i]));
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:3: warning: call 'delete nodes[i]' is not traced: the destructor 'Leaf::~Leaf' that it may run stores the object's virtual table pointer and touches the object's fields in a body that touches nothing else (bookkeeping, not instrumented), which wgtrace does not record
  delete owners[i];
  // CHECK: delete WGTRACE_LOAD_AT({{[0-9]+}}, owners[i]);
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:3: warning: call 'delete owners[i]' is not traced: the destructor 'Owner::~Owner' that it may run touches the object's fields in a body that touches nothing else (bookkeeping, not instrumented), which wgtrace does not record
  delete plain[i];
  // CHECK: delete WGTRACE_LOAD_AT({{[0-9]+}}, plain[i]);
  delete sealed[i];
  // CHECK: delete WGTRACE_LOAD_AT({{[0-9]+}}, sealed[i]);
  delete quiet[i];
  // CHECK: delete ::wgtrace::detail::deletedTableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), WGTRACE_LOAD_AT({{[0-9]+}}, quiet[i]));
  delete bases[i];
  // CHECK: delete ::wgtrace::detail::deletedTableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), WGTRACE_LOAD_AT({{[0-9]+}}, bases[i]));
}
