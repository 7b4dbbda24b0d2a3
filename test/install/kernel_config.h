// Included by kernel.cc: editing it must re-run the rewriter.
#pragma once
constexpr int kAddend = 1;
