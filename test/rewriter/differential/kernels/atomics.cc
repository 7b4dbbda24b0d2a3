// Atomic operations on kernel memory are recorded with the atomic mark:
// members and operators of std::atomic (integer and floating), of
// std::atomic_ref (a temporary and a local) and of std::atomic_flag, the
// std::atomic_* functions, the __atomic_* and __sync_* builtins; loads,
// stores and read-modify-writes (a load and a store, compare_exchange
// whether or not it succeeds) of the object's size, each naming its
// operation. A pointer loaded to reach the atomic is a plain load. The
// kernel's own atomics, also reached through a helper's reference, record
// nothing; kernel memory reached so does.
#include "harness.h"

#include <atomic>

struct Node {
  std::atomic<int> *next;
};

static void bump(std::atomic<int> &c, int &x) {
  c.fetch_add(1);                       // @bump
  std::atomic_ref<int>(x).fetch_add(2); // @bumpref
}

WGTRACE_DISPATCH void atomics(const wgtrace::Workgroup &wg,
                              std::atomic<int> *c, int *h, Node *n,
                              std::atomic_flag *f, std::atomic<double> *d) {
  unsigned w = wg.id[0];
  c[0].fetch_add(1);                             // @fetch_add
  c[1]++;                                        // @inc
  int v = c[2].load();                           // @load
  c[3] = v + 1;                                  // @assign
  int conv = c[2];                               // @conv
  c[4].store(conv);                              // @store
  (c + 5)->exchange(static_cast<int>(w));        // @exchange
  int e = 0;
  c[6].compare_exchange_strong(e, 1);            // @cas
  std::atomic_ref<int>(h[w]).fetch_add(3);       // @ref
  std::atomic_ref<int> r(h[2 + w]);
  r.store(7);                                    // @refstore
  r += 1;                                        // @refadd
  __atomic_fetch_add(&h[4], 1, __ATOMIC_RELAXED);        // @builtin
  int lv = __atomic_load_n(&h[5], __ATOMIC_ACQUIRE);     // @bload
  __atomic_store_n(&h[6 + w], lv + 1, __ATOMIC_RELEASE); // @bstore
  __sync_fetch_and_add(&h[8], 2);                // @sync
  n->next->fetch_sub(1);                         // @chain
  f->test_and_set();                             // @tas
  f->clear();                                    // @clear
  __atomic_test_and_set(&h[9], __ATOMIC_SEQ_CST); // @btas
  std::atomic_fetch_add(&c[9], 4);               // @free
  d[w].fetch_add(0.5);                           // @float
  c[8].wait(0);                                  // @wait
  c[8].notify_one();
  int local = 0;
  std::atomic<int> own{0};
  own.fetch_add(1);
  std::atomic_ref<int>(local).fetch_add(1);
  bump(c[7], h[10 + w]);
  bump(own, local);
  h[12 + w] = own.load() + local; // @plain
}

int main() {
  static std::atomic<int> c[10];
  c[8] = 5;
  int h[14] = {};
  static std::atomic<int> next{10};
  Node n{&next};
  static std::atomic_flag f;
  static std::atomic<double> d[2];
  wgtrace::dispatch(atomics, wgtrace::Grid{2, 1, 1}, c, h, &n, &f, d);

  diff::buffer("c", c, 10);
  diff::buffer("h", h, 14);
  diff::addressBuffer("n", &n);
  diff::buffer("next", &next);
  diff::buffer("f", &f);
  diff::buffer("d", d, 2);
  using A = std::atomic<int>;
  for (unsigned w = 0; w < 2; ++w) {
    diff::atomicUpdate<A>({w}, "c", 0, "fetch_add:c[0].fetch_add(1)");
    diff::atomicUpdate<A>({w}, "c", 1, "inc:c[1]++");
    diff::atomicLoad<A>({w}, "c", 2, "load:c[2].load()");
    diff::atomicStore<A>({w}, "c", 3, "assign:c[3]~=~v~+~1");
    diff::atomicLoad<A>({w}, "c", 2, "conv:c[2]");
    diff::atomicStore<A>({w}, "c", 4, "store:c[4].store(conv)");
    diff::atomicUpdate<A>({w}, "c", 5,
                          "exchange:(c~+~5)->exchange(static_cast<int>(w))");
    diff::atomicUpdate<A>({w}, "c", 6, "cas:c[6].compare_exchange_strong(e,~1)");
    diff::atomicUpdate<int>({w}, "h", w, "ref:std::atomic_ref<int>(h[w]).fetch_add(3)");
    diff::atomicStore<int>({w}, "h", 2 + w, "refstore:r.store(7)");
    diff::atomicUpdate<int>({w}, "h", 2 + w, "refadd:r~+=~1");
    diff::atomicUpdate<int>({w}, "h", 4,
                            "builtin:__atomic_fetch_add(&h[4],~1,~__ATOMIC_RELAXED)");
    diff::atomicLoad<int>({w}, "h", 5,
                          "bload:__atomic_load_n(&h[5],~__ATOMIC_ACQUIRE)");
    diff::atomicStore<int>(
        {w}, "h", 6 + w,
        "bstore:__atomic_store_n(&h[6~+~w],~lv~+~1,~__ATOMIC_RELEASE)");
    diff::atomicUpdate<int>({w}, "h", 8, "sync:__sync_fetch_and_add(&h[8],~2)");
    diff::load<std::atomic<int> *>({w}, "n", 0, "chain:n->next");
    diff::atomicUpdate<A>({w}, "next", 0, "chain:n->next->fetch_sub(1)");
    diff::atomicUpdate<std::atomic_flag>({w}, "f", 0, "tas:f->test_and_set()");
    diff::atomicStore<std::atomic_flag>({w}, "f", 0, "clear:f->clear()");
    // One byte of h[9], whatever the pointer's type.
    diff::bytes({w}, 'l', "h", 9 * sizeof(int), 1,
                "btas:__atomic_test_and_set(&h[9],~__ATOMIC_SEQ_CST)");
    diff::bytes({w}, 's', "h", 9 * sizeof(int), 1,
                "btas:__atomic_test_and_set(&h[9],~__ATOMIC_SEQ_CST)");
    diff::atomicUpdate<A>({w}, "c", 9, "free:std::atomic_fetch_add(&c[9],~4)");
    diff::atomicUpdate<std::atomic<double>>({w}, "d", w, "float:d[w].fetch_add(0.5)");
    diff::atomicLoad<A>({w}, "c", 8, "wait:c[8].wait(0)");
    diff::atomicUpdate<A>({w}, "c", 7, "bump:c.fetch_add(1)");
    diff::atomicUpdate<int>({w}, "h", 10 + w,
                            "bumpref:std::atomic_ref<int>(x).fetch_add(2)");
    diff::store<int>({w}, "h", 12 + w, "plain:h[12~+~w]");
  }
  return diff::finish();
}
