// A project header whose members copy a std::string out of their object
// (CLAMR's PP::Word::get_string of Word.hh), which the string's library
// constructor reads: a copy into a rewritten file cannot record it.
#pragma once
#include <string>
class Word {
public:
  std::string get() { return s; }
  std::string name() { return n; }
  int size() { return len; }

private:
  std::string s, n;
  int len = 0;
};
