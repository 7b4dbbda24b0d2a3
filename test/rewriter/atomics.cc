// Atomic operations on kernel memory are recorded with the atomic mark: the
// rewriter wraps the operation's object (a std::atomic, a std::atomic_flag,
// a std::atomic_ref, or the pointer a builtin or `->` takes) in
// WGTRACE_ATOMIC_LOAD/STORE/UPDATE_AT, which records and yields it, and the
// operation runs on it as written. compare_exchange, exchange, fetch_*, ++,
// test_and_set and the __sync_* builtins are updates; wait a load; notify
// nothing. Atomics of the kernel's own locals are not memory; an atomic
// reached through a helper's reference is recorded when it is not the
// kernel's own stack (_REF_AT). What an operation is given by reference
// besides its object (compare_exchange's expected value) is untraced. The
// file records with ordinary stores.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <atomic>

// A file that makes atomic operations records with ordinary stores (an
// atomic operation would wait for non-temporal ones), unless told.
// CHECK: #ifndef WGTRACE_TEMPORAL_RECORDS
// CHECK-NEXT: #define WGTRACE_TEMPORAL_RECORDS 1
// CHECK-NEXT: #endif
// CHECK-NEXT: #include <wgtrace/instrument.h>

// The sites of atomic operations have the atomic kinds (4 load, 5 store,
// 6 update) and name the whole operation.
// CHECK: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 3, 6, "k", "counter.fetch_add(1)"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, 6, "k", "counter++"},
// CHECK-NEXT: {"{{.*}}", [[#]], 11, 4, "k", "counter.load()"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, 5, "k", "counter = v"},
// CHECK-NEXT: {"{{.*}}", [[#]], 11, 4, "k", "counter"},
// CHECK: };
// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 35, "k", "hist[4]", "'std::{{.*}}::compare_exchange_strong' is given kernel memory ('hist[4]') by pointer or reference and reads or writes it in library code, which wgtrace does not record"},
// CHECK-NEXT: {"{{.*}}", [[#]], 41, "k", "&hist[10]", "'__atomic_compare_exchange_n' reads or writes the value this points to with a plain access of its own, which wgtrace does not record"},
// CHECK-NEXT: };

struct Node {
  std::atomic<int> *next;
};

void helper(std::atomic<int> &c, int &x) {
  c.fetch_add(1);
  // CHECK: WGTRACE_ATOMIC_UPDATE_REF_AT({{[0-9]+}}, c).fetch_add(1);
  std::atomic_ref<int>(x).fetch_add(2);
  // CHECK: WGTRACE_ATOMIC_UPDATE_REF_AT({{[0-9]+}}, std::atomic_ref<int>(x)).fetch_add(2);
}

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::atomic<int> &counter,
                        std::atomic<int> *slots, int *hist, Node *n,
                        std::atomic_flag *f) {
  counter.fetch_add(1);
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, counter).fetch_add(1);
  counter++;
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, counter)++;
  int v = counter.load();
  // CHECK: int v = WGTRACE_ATOMIC_LOAD_AT({{[0-9]+}}, counter).load();
  counter = v;
  // CHECK: WGTRACE_ATOMIC_STORE_AT({{[0-9]+}}, counter) = v;
  int w = counter;
  // CHECK: int w = WGTRACE_ATOMIC_LOAD_AT({{[0-9]+}}, counter);
  slots[1].store(3);
  // CHECK: WGTRACE_ATOMIC_STORE_AT({{[0-9]+}}, slots[1]).store(3);
  slots->exchange(4);
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, slots)->exchange(4);
  __atomic_fetch_add(&hist[wg.id[0]], 1, __ATOMIC_RELAXED);
  // CHECK: __atomic_fetch_add(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &hist[wg.id[0]]), 1, __ATOMIC_RELAXED);
  __sync_fetch_and_add(&hist[0], 1);
  // CHECK: __sync_fetch_and_add(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &hist[0]), 1);
  __sync_lock_release(&hist[1]);
  // CHECK: __sync_lock_release(WGTRACE_ATOMIC_STORE_AT({{[0-9]+}}, &hist[1]));
  std::atomic_ref<int>(hist[2]).fetch_add(1);
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, std::atomic_ref<int>(hist[2])).fetch_add(1);
  std::atomic_ref r(hist[3]);
  r.store(5);
  // CHECK: WGTRACE_ATOMIC_STORE_AT({{[0-9]+}}, r).store(5);
  r += 2;
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, r) += 2;
  int e = 0;
  counter.compare_exchange_strong(e, 3);
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, counter).compare_exchange_strong(e, 3);
  counter.compare_exchange_strong(hist[4], 3);
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, counter).compare_exchange_strong(hist[4], 3);
  // WARN: [[@LINE-2]]:35: warning: access of 'hist[4]' is not traced: 'std::{{.*}}::compare_exchange_strong' is given kernel memory ('hist[4]')
  __atomic_compare_exchange_n(&hist[5], &hist[10], 1, false, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
  // CHECK: __atomic_compare_exchange_n(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &hist[5]), &hist[10], 1, false, __ATOMIC_SEQ_CST,
  // WARN: [[@LINE-3]]:41: warning: access of '&hist[10]' is not traced: '__atomic_compare_exchange_n' reads or writes the value this points to
  n->next->fetch_sub(1);
  // The pointer is loaded (plain), then its object updated (atomic).
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, n->next))->fetch_sub(1);
  f->test_and_set();
  // CHECK: WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, f)->test_and_set();
  f->clear();
  // CHECK: WGTRACE_ATOMIC_STORE_AT({{[0-9]+}}, f)->clear();
  std::atomic_fetch_add(&counter, 2);
  // CHECK: std::atomic_fetch_add(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &counter), 2);
  std::atomic_flag_clear_explicit(f, std::memory_order_release);
  // CHECK: std::atomic_flag_clear_explicit(WGTRACE_ATOMIC_STORE_AT({{[0-9]+}}, f), std::memory_order_release);
  __atomic_test_and_set(&hist[6], __ATOMIC_SEQ_CST);
  // One byte, whatever the pointer's type.
  // CHECK: __atomic_test_and_set(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, ::wgtrace::detail::atomicByte(&hist[6])), __ATOMIC_SEQ_CST);
  int lv = __atomic_load_n(&hist[7], __ATOMIC_ACQUIRE);
  // CHECK: int lv = __atomic_load_n(WGTRACE_ATOMIC_LOAD_AT({{[0-9]+}}, &hist[7]), __ATOMIC_ACQUIRE);
  __atomic_store_n(&hist[8], lv + w, __ATOMIC_RELEASE);
  // CHECK: __atomic_store_n(WGTRACE_ATOMIC_STORE_AT({{[0-9]+}}, &hist[8]), lv + w, __ATOMIC_RELEASE);
  counter.wait(1);
  // CHECK: WGTRACE_ATOMIC_LOAD_AT({{[0-9]+}}, counter).wait(1);
  counter.notify_all();
  // CHECK: counter.notify_all();
  // The kernel's own atomics.
  int local = 0;
  std::atomic_ref<int>(local).fetch_add(1);
  // CHECK: std::atomic_ref<int>(local).fetch_add(1);
  std::atomic<int> own{0};
  own.fetch_add(1);
  // CHECK: own.fetch_add(1);
  hist[9] = own.load();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, hist[9]) = own.load();
  helper(counter, hist[9]);
  helper(own, local);
}
