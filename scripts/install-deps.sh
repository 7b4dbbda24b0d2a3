#!/usr/bin/env bash
# Installs the Debian 12 packages wgtrace builds and tests with. Idempotent,
# non-interactive and safe to re-run: it asks apt only for what is missing.
set -euo pipefail

packages=(
  clang-19 llvm-19-dev libclang-19-dev libclang-cpp19-dev llvm-19-tools
  libclang-rt-19-dev clang-format-19 clang-tidy-19
  # OpenMP for clang-19 (libomp and its omp.h): the OpenMP loops' tests
  # and benchmarks (GCC's libgomp comes with g++).
  libomp-19-dev
  libfmt-dev googletest libgtest-dev libbenchmark-dev
  libflatbuffers-dev flatbuffers-compiler
  # Compressed traces (WGTRACE_COMPRESS=zstd, wgtrace-view compress).
  libzstd-dev
  cmake ninja-build pkg-config python3 make
  # The manual pages: made by help2man, rendered by man -l in a test.
  help2man man-db groff-base
  # The cache model is checked against cachegrind's (e2e.cachegrind).
  valgrind
  # wgtrace-view html's test renders the report in headless Chromium.
  chromium
  # The Python module (python/): built against Debian's python3, tested
  # with pytest, its sample plots with matplotlib.
  python3-dev pybind11-dev python3-numpy python3-pandas python3-matplotlib
  python3-pytest
  # wgtrace.dask: the analyses over many files on Dask's schedulers.
  python3-dask python3-distributed
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
