// A source of the outside project that defines no kernel: touching it must
// not re-run the rewrite of kernel.cc.
int unrelated_answer() { return 42; }
