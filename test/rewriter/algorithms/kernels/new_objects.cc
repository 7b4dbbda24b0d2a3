// Objects a kernel makes with new, as llvm-test-suite's Prolangs-C++
// programs do (life.cpp's cells, primes.cpp's counter): the stores the
// constructors make to the new object (the base's virtual table pointer
// and fields, the class's own pointer, member initializers, in-class
// initializers, body assignments) are recorded after it is built, in the
// compiler's order. On the heap (new Point, new int) and in kernel memory
// by placement new.
#define ORACLE_KERNEL_HEAP
#include "oracle.h"

#include <cstring>
#include <new>

struct Living {
  int row, column;
  Living(int r, int c) : row(r), column(c) {}
  virtual int who() = 0;
};

struct Fox : Living {
  int age;
  Fox(int r, int c, int a = 0) : Living(r, c), age(a) {}
  int who() override { return 3 + age; }
};

struct Item {
  Item *source;
  Item(Item *src) { source = src; }
  virtual int out() { return 0; }
};

struct Counter : Item {
  int value;
  Counter(int v) : Item(0) { value = v; }
  int out() override { return value++; }
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

constexpr unsigned Slot = 64;

WGTRACE_DISPATCH void build(const wgtrace::Workgroup &wg, unsigned char *arena,
                            const int *a, int *out, Point **points,
                            int **ints) {
  unsigned i = wg.id[0];
  unsigned char *slot = arena + i * Slot;
  Living *fox = new (slot) Fox(a[i], 2, 1);
  Item *counter = new (slot + 24) Counter(a[i + 1]);
  Tagged *tagged = new (slot + 48) Tagged(a[i]);
  out[i] = fox->who() + counter->out() + static_cast<int>(tagged->tag);
  points[i] = new Point(a[i], 5);
  ints[i] = new int(a[i] * 2);
  out[i] += points[i]->y + *ints[i];
}

int main() {
  alignas(16) static unsigned char arena[2 * Slot];
  int a[3] = {4, 9, 16};
  int out[2] = {};
  Point *points[2] = {};
  int *ints[2] = {};
  oracle::buffer("arena", arena, sizeof arena);
  oracle::buffer("a", a, 3);
  oracle::buffer("out", out, 2);
  oracle::buffer("points", points, 2);
  oracle::buffer("ints", ints, 2);
  oracle::run(build, 2, arena, a, out, points, ints);
  // The virtual table pointers and the heap's addresses differ between
  // the two builds: not compared.
  for (unsigned i = 0; i < 2; ++i) {
    std::memset(arena + i * Slot, 0, sizeof(void *));
    std::memset(arena + i * Slot + 24, 0, sizeof(void *));
  }
  std::memset(static_cast<void *>(points), 0, sizeof points);
  std::memset(static_cast<void *>(ints), 0, sizeof ints);
  return oracle::finish();
}
