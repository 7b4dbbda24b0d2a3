#!/usr/bin/env bash
# Configures (once) and builds wgtrace with clang-19, CMake and Ninja into
# ${BUILD_DIR:-build}. Arguments name the targets to build (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build}"
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build_dir" \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
if [ $# -gt 0 ]; then
  cmake --build "$build_dir" -j "$(nproc)" --target "$@"
else
  cmake --build "$build_dir" -j "$(nproc)"
fi
