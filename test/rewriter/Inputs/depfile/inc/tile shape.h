// Included by depfile/kernel.cc: its name has a space to escape.
#pragma once
constexpr int kTile = 4;
