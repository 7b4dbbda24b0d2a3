// std::string's members that copy characters into the kernel's strings
// (append, +=, push_back, assign, =, insert, replace) or out of them
// (copy), and compare: every character libstdc++ reads and writes, in its
// order, as a kernel formats a line per record and a log of them. Within
// the capacity (the tail moved first: from its last character back when
// it moves up) and with reallocation (the new storage comes from the
// harness's kernel heap); a source inside the string itself; a short
// local string, whose characters are the kernel's own (not recorded).
#define ORACLE_KERNEL_HEAP
#include "oracle.h"

#include <cstdio>
#include <functional>
#include <string>

// Formats workgroup g's record into line and appends it to log.
WGTRACE_DISPATCH void format(const wgtrace::Workgroup &wg, std::string &line,
                             const std::string &name, const char *fields,
                             std::string &log) {
  size_t g = wg.id[0];
  line.assign(name);
  line += ':';
  line.append(fields + 4 * g, 3);
  line.append(2, '.');
  line += " ok";
  line.insert(0, fields + g, 2);
  line.insert(1, 3, '#');
  line.replace(0, 2, name);
  line.replace(3, 4, fields + 1, 2);
  line.replace(1, 1, 3, '*');
  line.push_back('!');
  log.append(line);
  log += '\n';
  std::string tag = "wg";
  tag += char('0' + g);
  log += tag;
  line = name;
  line.resize(5);
  line.insert(1, line);
  line.append(line);
  line.assign(fields, 5 + g);
  line.insert(2, name);
  line.replace(4, 1, line.c_str(), 3);
  line.replace(0, 1, line.c_str() + 2, 3);
  log.append(log.capacity() - g, '=');
}

// Copies a window of the log out and compares the log with the name.
WGTRACE_DISPATCH void extract(const wgtrace::Workgroup &wg,
                              const std::string &log, const std::string &name,
                              char *window, int *order) {
  size_t copied = log.copy(window + 4 * wg.id[0], 4, 7 * wg.id[0]);
  order[wg.id[0]] = log.compare(name) < 0 ? -int(copied) : int(copied);
}

int main() {
  std::string line, log, name = "a-record-of-many-names";
  // Spare capacity, its bytes set (both builds print them).
  line.assign(40, '-');
  line.clear();
  log.assign(30, '-');
  log.clear();
  const char fields[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  char window[12] = {};
  int order[3] = {};
  oracle::buffer("line", line.data(), line.capacity() + 1);
  oracle::buffer("log", log.data(), log.capacity() + 1);
  oracle::buffer("name", name.data(), name.size() + 1);
  oracle::buffer("fields", fields, sizeof fields);
  oracle::buffer("window", window, sizeof window);
  oracle::buffer("order", order, 3);
  oracle::run(format, 3, std::ref(line), std::cref(name), fields,
              std::ref(log));
  oracle::run(extract, 3, std::cref(log), std::cref(name), window, order);
  std::printf("%s\n%s\n", line.c_str(), log.c_str());
  return oracle::finish();
}
