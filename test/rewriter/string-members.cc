// append, +=, push_back, assign, =, insert, replace and resize on a
// std::string whose characters are kernel memory, its copy() and
// compare(), record what libstdc++ reads and writes (the algorithms
// oracle's string_members.cc checks the records): the string is wrapped in
// recorded::string, with the role of each argument ('M' a pointer to
// characters of kernel memory, '-' anything else: a string literal is the
// program's text). A null-terminated pointer to kernel memory (strlen
// measures it), the other forms and other members that write the string
// (erase, substr's new string is not its) stay untraced: a warning, an
// error under --strict.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <string>

// CHECK: #include <wgtrace/algorithms.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::string &s,
                        const std::string &t, const char *p, char *out,
                        std::string *q, int *order) {
  s += "x";
  // CHECK: ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(1), s) += "x";
  s += t;
  // CHECK: ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(2), s) += t;
  s += char('a' + wg.id[0]);
  // CHECK: ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(3), s) += char('a' + wg.id[0]);
  s.append(p, 3);
  // CHECK: ::wgtrace::detail::recorded::string<'M', '-'>(WGTRACE_ACCESS_SITE(4), s).append(p, 3);
  s.append(2, '.');
  // CHECK: ::wgtrace::detail::recorded::string<'-', '-'>(WGTRACE_ACCESS_SITE(5), s).append(2, '.');
  q->push_back(p[0]);
  // CHECK: ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(6), q)->push_back(WGTRACE_LOAD_AT(7, p[0]));
  s.assign(t, 1, 4);
  // CHECK: ::wgtrace::detail::recorded::string<'-', '-', '-'>(WGTRACE_ACCESS_SITE(8), s).assign(t, 1, 4);
  s = "label";
  // CHECK: ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(9), s) = "label";
  s.insert(1, t);
  // CHECK: ::wgtrace::detail::recorded::string<'-', '-'>(WGTRACE_ACCESS_SITE(10), s).insert(1, t);
  s.insert(0, p + 1, 2);
  // CHECK: ::wgtrace::detail::recorded::string<'-', 'M', '-'>(WGTRACE_ACCESS_SITE(11), s).insert(0, p + 1, 2);
  s.replace(0, 2, 3, '*');
  // CHECK: ::wgtrace::detail::recorded::string<'-', '-', '-', '-'>(WGTRACE_ACCESS_SITE(12), s).replace(0, 2, 3, '*');
  s.resize(4);
  // CHECK: ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(13), s).resize(4);
  t.copy(out, 2, 1);
  // CHECK: ::wgtrace::detail::recorded::string<'-', '-', '-'>(WGTRACE_ACCESS_SITE(14), t).copy(out, 2, 1);
  *order = s.compare(t);
  // CHECK: WGTRACE_STORE_AT(15, *order) = ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(16), s).compare(t);
  std::string local = "ab";
  local += t;
  // CHECK: ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(17), local) += t;
  s.append(p);
  // WARN: [[@LINE-1]]:3: warning: call 's.append(p)' is not traced: 'std::basic_string::append' is given kernel memory ('p') by pointer or reference and reads or writes it in library code, which wgtrace does not record
  // STRICT: [[@LINE-2]]:3: error: call 's.append(p)' is not traced
  s.erase(0, 1);
  // WARN: [[@LINE-1]]:3: warning: call 's.erase(0, 1)' is not traced: 'std::basic_string::erase' reads or writes the elements of 's', kernel memory, in library code, which wgtrace does not record
  s.append(t, 1);
  // CHECK: ::wgtrace::detail::recorded::string<'-', '-', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), s).append(t, 1);
  s.insert(0, t, 1, 2);
  // WARN: [[@LINE-1]]:3: warning: call 's.insert(0, t, 1, 2)' is not traced
  std::string part = t.substr(1, 2);
  // WARN: [[@LINE-1]]:22: warning: call 't.substr(1, 2)' is not traced
}
