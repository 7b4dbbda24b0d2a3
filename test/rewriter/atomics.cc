// Atomic operations on kernel memory (std::atomic members and operators,
// std::atomic_ref, the __atomic_* and __sync_* builtins) are not recorded:
// a record has no atomic flag, and as plain loads and stores synchronized
// updates would show as races. Each is untraced (warning, --strict error,
// table entry) instead of silent, as they were. Atomics of the kernel's own
// locals are not memory.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <atomic>

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "counter.fetch_add(1)", "it is an atomic operation, which wgtrace does not record: a record has no atomic flag, and as plain loads and stores synchronized updates would show as races between workgroups"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "counter++", "it is an atomic operation{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 11, "k", "counter.load()", "it is an atomic operation{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "counter = v", "it is an atomic operation{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "slots[1].store(3)", "it is an atomic operation{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "slots->exchange(4)", "it is an atomic operation{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "__atomic_fetch_add(&hist[wg.id[0]], 1, __ATOMIC_RELAXED)", "it is an atomic operation{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "__sync_fetch_and_add(&hist[0], 1)", "it is an atomic operation{{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "std::atomic_ref<int>(hist[2])", "it is an atomic operation{{.*}}"},
// CHECK-NEXT: };
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::atomic<int> &counter,
                        std::atomic<int> *slots, int *hist) {
  counter.fetch_add(1);
  // WARN: [[@LINE-1]]:3: warning: call 'counter.fetch_add(1)' is not traced: it is an atomic operation, which wgtrace does not record: a record has no atomic flag, and as plain loads and stores synchronized updates would show as races between workgroups
  counter++;
  // WARN: [[@LINE-1]]:3: warning: call 'counter++' is not traced
  int v = counter.load();
  // WARN: [[@LINE-1]]:11: warning: call 'counter.load()' is not traced
  counter = v;
  // WARN: [[@LINE-1]]:3: warning: call 'counter = v' is not traced
  slots[1].store(3);
  // WARN: [[@LINE-1]]:3: warning: call 'slots[1].store(3)' is not traced
  slots->exchange(4);
  // WARN: [[@LINE-1]]:3: warning: call 'slots->exchange(4)' is not traced
  __atomic_fetch_add(&hist[wg.id[0]], 1, __ATOMIC_RELAXED);
  // WARN: [[@LINE-1]]:3: warning: call '__atomic_fetch_add(&hist[wg.id[0]], 1, __ATOMIC_RELAXED)' is not traced
  __sync_fetch_and_add(&hist[0], 1);
  // WARN: [[@LINE-1]]:3: warning: call '__sync_fetch_and_add(&hist[0], 1)' is not traced
  std::atomic_ref<int>(hist[2]).fetch_add(1);
  // WARN: [[@LINE-1]]:3: warning: call 'std::atomic_ref<int>(hist[2])' is not traced
  std::atomic<int> local{0};
  local.fetch_add(1);
  hist[3] = local.load();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, hist[3]) = local.load();
}
