//===- wgtrace/detail/indirect.h - Calls through pointers -----------------===//
//
// A kernel that calls through a function pointer, a member function pointer
// or a std::function runs whatever the pointer holds when the program runs.
// The rewriter instruments every function of the rewritten file (and copies
// every function of the project's headers) whose type such a call may
// target, and registers each one's plain address with its instrumented
// version (IndirectTargets, at the end of the rewritten file). The call
// site asks the registry: a registered target runs instrumented
// (throughPointer returns the instrumented copy); any other runs as
// written, and the running workgroup gets a VALUE record of type
// UninstrumentedCall naming the call site, so that every view says how
// often, where and in which workgroups the trace misses what it did.
//
// Included by <wgtrace/instrument.h>; not meant to be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_INDIRECT_H
#define WGTRACE_DETAIL_INDIRECT_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <utility>

namespace wgtrace::detail {

/// A call through a pointer the rewriter rewrote (fb::IndirectCallDef).
struct IndirectCallInfo {
  const char *File;
  uint32_t Line;
  uint32_t Column;
  /// The kernel or helper it is in.
  const char *Scope;
  const char *Text;
};

/// The calls through pointers of one rewritten file. Constructing it
/// registers them: they get process-wide ids, the indexes of the
/// metadata's indirect_calls table.
class IndirectCalls {
public:
  IndirectCalls(const IndirectCallInfo *Calls, size_t NumCalls);
  IndirectCalls(const IndirectCalls &) = delete;
  IndirectCalls &operator=(const IndirectCalls &) = delete;

  /// The process-wide id of this file's call \p Index (0-based).
  uint64_t id(uint32_t Index) const { return Base + Index; }

  const IndirectCallInfo *Calls;
  size_t NumCalls;

private:
  uint64_t Base = 0;
};

/// A function the rewriter instrumented, as a call through a pointer
/// finds it: the bytes of the pointer that names it as written (a function
/// pointer in Key[0]; a member function pointer's two words) and the
/// function to call instead (the same function when it is instrumented in
/// place, its copy when it is a header's).
struct IndirectTarget {
  uintptr_t Key[2];
  const void *Instrumented;
  /// Instrumented only in part: a function that other files' kernels may
  /// call (--whole-target) with code the rewriter could not wrap. The
  /// rewriter does not warn about that code when no kernel of its own file
  /// calls it (a driver's, an input parser's: noise); instead a workgroup's
  /// call of it is counted as a call of uninstrumented code.
  bool Partial;
};

template <class F>
IndirectTarget functionTarget(F *Plain, F *Instrumented, bool Partial = false) {
  static_assert(std::is_function_v<F>, "a function pointer");
  return {{reinterpret_cast<uintptr_t>(Plain), 0},
          reinterpret_cast<const void *>(Instrumented),
          Partial};
}

template <class M> IndirectTarget memberKey(M Pointer) {
  static_assert(std::is_member_function_pointer_v<M> &&
                    sizeof(M) <= 2 * sizeof(uintptr_t),
                "a member function pointer");
  IndirectTarget Target{{0, 0}, nullptr, false};
  std::memcpy(Target.Key, &Pointer, sizeof(M));
  return Target;
}

template <class M>
IndirectTarget memberTarget(M Pointer, bool Partial = false) {
  IndirectTarget Target = memberKey(Pointer);
  // Instrumented in place: only whether it is registered matters.
  Target.Instrumented = &Target;
  Target.Partial = Partial;
  return Target;
}

/// Registers the instrumented functions of one rewritten file.
class IndirectTargets {
public:
  IndirectTargets(const IndirectTarget *Targets, size_t NumTargets);
  IndirectTargets(const IndirectTargets &) = delete;
  IndirectTargets &operator=(const IndirectTargets &) = delete;
};

/// The registration of a pointer's bytes, or null. Lock-free:
/// registration publishes a new table, never changes one.
const IndirectTarget *findIndirectTarget(uintptr_t Key0,
                                         uintptr_t Key1) noexcept;

/// Notes, in the running workgroup (if any), that call \p CallId ran a
/// function wgtrace did not instrument.
void noteUninstrumentedCall(uint64_t CallId) noexcept;

/// The registration of the function call \p CallId is about to run (keys
/// as findIndirectTarget's), having noted the call when that function is
/// not instrumented, in whole or in part.
inline const IndirectTarget *lookUpCall(uint64_t CallId, uintptr_t Key0,
                                        uintptr_t Key1) noexcept {
  const IndirectTarget *Found = findIndirectTarget(Key0, Key1);
  if (!Found || Found->Partial)
    noteUninstrumentedCall(CallId);
  return Found;
}

/// `fp(args)` becomes `throughPointer(id, fp)(args)`.
template <class F> F *throughPointer(uint64_t CallId, F *Target) {
  static_assert(std::is_function_v<F>, "a function pointer");
  const IndirectTarget *Found =
      lookUpCall(CallId, reinterpret_cast<uintptr_t>(Target), 0);
  if (!Found)
    return Target;
  return reinterpret_cast<F *>(const_cast<void *>(Found->Instrumented));
}

/// The same call written in a template, in an instantiation where `fp` is
/// a function object (a functor, a lambda, `std::less<>`) rather than a
/// pointer: the object itself, called as written (a call of a known
/// function, no call through a pointer).
template <class F, std::enable_if_t<std::is_class_v<std::remove_reference_t<F>>,
                                    int> = 0>
F &&throughPointer(uint64_t, F &&Object) noexcept {
  return std::forward<F>(Object);
}

/// A kernel's call of a function that another file defines (a function of
/// another source of the same target): `f(x)` becomes
/// `(definedElsewhere<void (int)>(id, &::f), f(x))` and `o.g(x)`
/// becomes `(definedElsewhere<void (C::*)(int)>(id, &::C::g), o.g(x))`, the
/// call itself as written. The file that defines it, rewritten with
/// --whole-target, instruments it in place and registers it; one no rewritten
/// file registered runs uninstrumented, which the running workgroup notes as
/// for a call through a pointer. T is the function's type, or the member
/// function pointer's.
template <class T>
void definedElsewhere(
    uint64_t CallId,
    std::conditional_t<std::is_function_v<T>, T *, T> Address) {
  uintptr_t Key0 = 0;
  uintptr_t Key1 = 0;
  if constexpr (std::is_function_v<T>) {
    Key0 = reinterpret_cast<uintptr_t>(Address);
  } else {
    IndirectTarget Key = memberKey(Address);
    Key0 = Key.Key[0];
    Key1 = Key.Key[1];
  }
  lookUpCall(CallId, Key0, Key1);
}

/// `(o.*pm)(args)` becomes `(o.*throughMember(id, pm))(args)`. The member
/// functions the rewriter instruments are instrumented in place.
template <class M> M throughMember(uint64_t CallId, M Pointer) {
  IndirectTarget Key = memberKey(Pointer);
  lookUpCall(CallId, Key.Key[0], Key.Key[1]);
  return Pointer;
}

/// What `f(args)` calls for a std::function f: the instrumented version of
/// the function it holds, or f itself.
template <class Signature> class FunctionCall;
template <class R, class... A> class FunctionCall<R(A...)> {
public:
  FunctionCall(R (*Instrumented)(A...), const std::function<R(A...)> &F)
      : Instrumented(Instrumented), F(F) {}
  template <class... B> R operator()(B &&...Args) const {
    if (Instrumented)
      return Instrumented(std::forward<B>(Args)...);
    return F(std::forward<B>(Args)...);
  }

private:
  R (*Instrumented)(A...);
  const std::function<R(A...)> &F;
};

/// `f(args)` for a std::function f becomes `throughFunction(id, f)(args)`.
/// A function it holds is looked up as through a function pointer; any
/// other callable (a lambda, a functor) runs as it is: instrumented when
/// it is a lambda written in a kernel, not otherwise, which is reported
/// where it is written.
template <class R, class... A>
FunctionCall<R(A...)> throughFunction(uint64_t CallId,
                                      const std::function<R(A...)> &F) {
  using Pointer = R (*)(A...);
  // A std::function never holds a null function pointer (it is empty
  // instead).
  if (const Pointer *Held = F.template target<Pointer>())
    return {throughPointer(CallId, *Held), F};
  return {nullptr, F};
}

} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_INDIRECT_H
