// A std::string keeps up to 15 characters in the object (libstdc++), on the
// kernel's stack when it is a local, and writes more into new storage on
// the heap, kernel memory, in library code. A construction that may write
// more (a count or a length not known to be small, a pointer to characters
// that is no short literal, a range, a list) went unrecorded in silence:
// it is reported. One known to be short (a literal of at most 15
// characters, a constant count of at most 15, 3 for a std::wstring) writes
// only the object: nothing to report. A copy of a local string is
// reported as a copy (container-copies.cc); a move touches no character.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <string>
#include <utility>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const char *in,
                        size_t *out) {
  const size_t n = wg.id[0] + 1;
  std::string shortLiteral = "fifteen chars..";
  std::string longLiteral = "sixteen chars...";
  // WARN: [[@LINE-1]]:29: warning: call '"sixteen chars..."' is not traced: construction of 'std::basic_string' writes its characters into new storage on the heap, kernel memory, when they are more than the object holds, in library code, which wgtrace does not record
  std::string shortCount(15, 'x');
  std::string longCount(16, 'x');
  // WARN: [[@LINE-1]]:15: warning: call 'longCount(16, 'x')' is not traced: construction of 'std::basic_string' writes its characters into new storage on the heap
  std::string anyCount(n, 'x');
  // WARN: [[@LINE-1]]:15: warning: call 'anyCount(n, 'x')' is not traced: construction of 'std::basic_string' writes its characters into new storage on the heap
  char local[4] = {'a', 'b', 'c', '\0'};
  std::string fromLocal(local);
  // WARN: [[@LINE-1]]:15: warning: call 'fromLocal(local)' is not traced: construction of 'std::basic_string' writes its characters into new storage on the heap
  std::string fromBuffer(in, 2);
  // WARN: [[@LINE-1]]:15: warning: call 'fromBuffer(in, 2)' is not traced: construction of 'std::basic_string' is given kernel memory ('in') by pointer or reference
  std::string fromRange(local, local + 3);
  // WARN: [[@LINE-1]]:15: warning: call 'fromRange(local, local + 3)' is not traced: construction of 'std::basic_string' writes its characters into new storage on the heap
  std::wstring wideShort(3, L'x');
  std::wstring wideLong(4, L'x');
  // WARN: [[@LINE-1]]:16: warning: call 'wideLong(4, L'x')' is not traced: construction of 'std::basic_string' writes its characters into new storage on the heap
  std::string empty;
  std::string moved(std::move(shortLiteral));
  out[wg.id[0]] = moved.size() + longLiteral.size() + shortCount.size() +
                  longCount.size() + anyCount.size() + fromLocal.size() +
                  fromBuffer.size() + fromRange.size() + wideShort.size() +
                  wideLong.size() + empty.size();
}
