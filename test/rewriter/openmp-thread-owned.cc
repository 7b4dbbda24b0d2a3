// --openmp: an access whose address is computed from the running thread's
// own is marked thread-owned (`nullptr, false, true` after its text): races
// compares two such accesses only when different threads made them, since
// one thread's iterations take turns at its storage, and another thread
// would have used its own. The thread's own: omp_get_thread_num(), a
// threadprivate or thread_local variable, and a variable private to the
// thread whose every value is computed from those (NPB IS: `myid =
// omp_get_thread_num(); work_buff = bucket_size[myid];`), also through
// another such variable. Not: a variable also given a shared value, one
// whose address escapes, a shared variable (its one value is every
// thread's, even when the encountering thread computed it from its number)
// and what is loaded through a pointer that is not the thread's own.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc

#include <omp.h>

int *bucket_size[64];
int bucket_ptrs[16];
#pragma omp threadprivate(bucket_ptrs)
thread_local int scratch[4];
int hist[64 * 16];

// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 2, "omp for at {{.*}} in rank", "work_buff[keys[i] >> shift]", nullptr, false, true},
// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}} in rank", "alias[0]", nullptr, false, true},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 2, "omp for at {{.*}} in rank", "hist[omp_get_thread_num() * 16 + (keys[i] & 15)]", nullptr, false, true},
// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 2, "omp for at {{.*}} in rank", "bucket_ptrs[keys[i] >> shift]", nullptr, false, true},
// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}} in rank", "out[bucket_ptrs[0]]", nullptr, false, true},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 0, "omp for at {{.*}} in rank", "out"},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 0, "omp for at {{.*}} in rank", "bucket_ptrs[0]", nullptr, false, true},
// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}} in rank", "scratch[0]", nullptr, false, true},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}} in rank", "other[i]"},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}} in rank", "mixed[i]"},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}} in rank", "(*handle)[i]"},
void rank(const int *keys, int *out, int n, int shift) {
#pragma omp parallel
  {
    int *work_buff;
    int myid = omp_get_thread_num();
    work_buff = bucket_size[myid];
    int *alias = work_buff + 1;
    int *other = out;
    int *mixed = work_buff;
    if (n > 4)
      mixed = out;
    int *escaped = work_buff;
    int **handle = &escaped;
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      work_buff[keys[i] >> shift]++;
      alias[0] = 1;
      hist[omp_get_thread_num() * 16 + (keys[i] & 15)] += 1;
      bucket_ptrs[keys[i] >> shift]++;
      out[bucket_ptrs[0]] = keys[i];
      scratch[0] = i;
      other[i] = 0;
      mixed[i] = 0;
      (*handle)[i] = 0;
    }
  }
}

// A private copy given the thread's number in the region, and the locals
// of a function whose `omp for` is orphaned (each thread calling it has
// its own): the thread's. The encountering thread's number, shared by the
// region: not.
// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}} in privateCopy", "mine[i]", nullptr, false, true},
// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}} in privateCopy", "hist[master * 16 + i]"},
void privateCopy(int n) {
  int tid;
  int master = omp_get_thread_num();
#pragma omp parallel private(tid)
  {
    tid = omp_get_thread_num();
    int *mine = bucket_size[tid];
#pragma omp for
    for (int i = 0; i < n; i++) {
      mine[i] = i;
      hist[master * 16 + i] = i;
    }
  }
}

// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 2, "omp for at {{.*}} in orphaned", "counts[keys[i] & 15]", nullptr, false, true},
void orphaned(const int *keys, int n) {
  int *counts = bucket_size[omp_get_thread_num()];
#pragma omp for
  for (int i = 0; i < n; i++)
    counts[keys[i] & 15] += 1;
}
