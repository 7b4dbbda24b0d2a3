// A new-expression writes the object it makes, with no expression of the
// kernel to wrap: a scalar's value, and what the constructors store (the
// bases' virtual table pointers and fields first, then the class's own
// pointer, its member initializers and in-class initializers in order,
// then its body's assignments). Those stores are recorded after the
// object is built, in that order, when the constructors' text tells them
// exactly: each value computed from constants and by-value parameters
// (no load between two stores), one virtual table pointer, no bit-field.
// A braced list stores each element or field once its value is computed:
// the same when no value after the first reads memory. Otherwise the
// new-expression is reported, with the reason; a
// construction that writes nothing (trivial, default) is left alone.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <new>

// As llvm-test-suite's Prolangs-C++ life.cpp builds its cells.
struct Living {
  int row, column;
  Living(int r, int c) : row(r), column(c) {}
  virtual ~Living() = default;
  virtual int who() = 0;
};
struct Fox : Living {
  int age;
  Fox(int r, int c, int a = 0) : Living(r, c), age(a) {}
  int who() override { return 3; }
};

// As primes.cpp's counter: a base built with a constant, a field
// assigned in the body.
struct Item {
  Item *source;
  Item(Item *src) { source = src; }
  virtual int out() { return 0; }
};
struct Counter : Item {
  int value;
  Counter(int v) : Item(0) { value = v; }
};

// As deriv1's sum_expr: the body assigns a field of the base.
struct BinOp : Item {
  char op;
  BinOp(Item *l) : Item(l) { op = '?'; }
};
struct Sum : BinOp {
  Sum(Item *l) : BinOp(l) { op = '+'; }
};

struct Point {
  int x, y;
  Point(int a, int b) : x(a), y(b) {}
};
struct Tagged {
  Point p;
  long tag = 7;
  explicit Tagged(int v) : p(v, v + 1) {}
};
struct Plain {
  int x, y;
};
struct Ref {
  int x;
  explicit Ref(const int &v) : x(v) {}
};
struct Left {
  virtual ~Left() = default;
};
struct Two : Left, Fox {
  Two() : Fox(0, 0) {}
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Living **cells,
                        Item **items, int **ints, Tagged **tagged,
                        Plain **plain, Point *slots, const int *a) {
  unsigned i = wg.id[0];
  cells[i] = new Fox(a[i], 2);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, cells[i]) = ::wgtrace::detail::constructed<0, 8, 8, 4, 12, 4, 0, 8, 16, 4>(WGTRACE_ACCESS_SITE({{[0-9]+}}), new Fox(WGTRACE_LOAD_AT({{[0-9]+}}, a[i]), 2));
  items[i] = new Counter(a[i + 1]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, items[i]) = ::wgtrace::detail::constructed<0, 8, 8, 8, 0, 8, 16, 4>(WGTRACE_ACCESS_SITE({{[0-9]+}}), new Counter(WGTRACE_LOAD_AT({{[0-9]+}}, a[i + 1])));
  items[i] = new Sum(items[i]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, items[i]) = ::wgtrace::detail::constructed<0, 8, 8, 8, 0, 8, 16, 1, 0, 8, 16, 1>(WGTRACE_ACCESS_SITE({{[0-9]+}}), new Sum(WGTRACE_LOAD_AT({{[0-9]+}}, items[i])));
  ints[i] = new int(a[i]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, ints[i]) = ::wgtrace::detail::constructed<0, 4>(WGTRACE_ACCESS_SITE({{[0-9]+}}), new int(WGTRACE_LOAD_AT({{[0-9]+}}, a[i])));
  tagged[i] = new Tagged(3);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, tagged[i]) = ::wgtrace::detail::constructed<0, 4, 4, 4, 8, 8>(WGTRACE_ACCESS_SITE({{[0-9]+}}), new Tagged(3));
  new (&slots[i]) Point(1, 2);
  // CHECK: ::wgtrace::detail::constructed<0, 4, 4, 4>(WGTRACE_ACCESS_SITE({{[0-9]+}}), new (&slots[i]) Point(1, 2));
  plain[i] = new Plain;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, plain[i]) = new Plain;
  int *block = new int[4];
  // CHECK: int *block = new int[4];
  float *pair = new float[2]{static_cast<float>(a[i]), 1.0f};
  // CHECK: float *pair = ::wgtrace::detail::constructed<0, 4, 4, 4>(WGTRACE_ACCESS_SITE({{[0-9]+}}), new float[2]{static_cast<float>(WGTRACE_LOAD_AT({{[0-9]+}}, a[i])), 1.0f});
  plain[i] = new Plain{a[i], 2};
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, plain[i]) = ::wgtrace::detail::constructed<0, 4, 4, 4>(WGTRACE_ACCESS_SITE({{[0-9]+}}), new Plain{WGTRACE_LOAD_AT({{[0-9]+}}, a[i]), 2});
  plain[i] = new Plain{2, a[i]};
  // WARN: {{.*}}.cc:[[@LINE-1]]:14: warning: store of 'new Plain{2, a[i]}' is not traced: it initializes the object it makes from a braced list whose values after the first read memory, or that does not give every element or field its value
  Ref *r = new Ref(a[i]);
  // WARN: {{.*}}.cc:[[@LINE-1]]:12: warning: store of 'new Ref(a[i])' is not traced: 'Ref::Ref' initializes 'x' from more than constants and values of its own stack
  Two *two = new Two;
  // WARN: {{.*}}.cc:[[@LINE-1]]:14: warning: store of 'new Two' is not traced: its class has more than one virtual table pointer
  Fox local(1, 2);
  // CHECK: Fox local(1, 2);
  (void)local;
  delete r;
  delete two;
  delete[] block;
  delete[] pair;
}
