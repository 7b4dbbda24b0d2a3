#!/usr/bin/env bash
# Installs wgtrace from the build tree into a fresh prefix (outside the
# loader's default directories), then builds and runs an outside CMake
# project (find_package + wgtrace_instrument_target, on its own target and
# on a static library of a subdirectory that links with
# target_link_libraries' plain signature) and an outside Makefile
# project (pkg-config + wgtrace-rewrite, no rpath of its own) against it,
# and reads their traces with the installed wgtrace-view. Also: the
# installed rewriter finds its headers with no -I, the installed tools'
# --version, and the man pages render.
# With a Python interpreter and the package's folder under the prefix, the
# installed wgtrace module reads the CMake project's trace too.
# Usage: installed_use_test.sh <build dir> <source dir of this test> <work dir>
#          [<python> <site-packages folder relative to the prefix>]
set -euo pipefail
build=$1 here=$2 work=$3 python=${4:-} sitedir=${5:-}
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
passed=0 failed=0
check() { if "$@"; then passed=$((passed + 1)); else echo "FAIL: $*"; failed=$((failed + 1)); fi; }

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
check test -x "$prefix/bin/wgtrace-rewrite"
check test -x "$prefix/bin/wgtrace-view"
check test -f "$prefix/include/wgtrace/wgtrace.h"
check test -f "$prefix/lib/pkgconfig/wgtrace.pc"
check test -f "$prefix/lib/cmake/wgtrace/wgtraceConfig.cmake"
for tool in wgtrace-rewrite wgtrace-view; do
  check grep -q "^NAME" <(MANWIDTH=80 man -l "$prefix/share/man/man1/$tool.1" 2>/dev/null)
done
check test -f "$prefix/share/doc/wgtrace/DESIGN.md"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
check grep -qx "wgtrace-rewrite $version (LLVM 19\.[0-9.]*)" <("$prefix/bin/wgtrace-rewrite" --version)
check grep -qx "wgtrace-view $version (LLVM 19\.[0-9.]*)" <("$prefix/bin/wgtrace-view" --version)
# The .pc file names the prefix installed to, and links with an rpath there.
check test "$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=prefix wgtrace)" = "$prefix"
check grep -q -- "-Wl,-rpath,$prefix/lib " <(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --libs wgtrace)

# The installed rewriter finds wgtrace's headers (beside it) and clang's
# builtin ones by itself: '--' and no include flags.
mkdir -p "$work/bare"
cp "$here/kernel.cc" "$here/kernel_config.h" "$work/bare/"
check "$prefix/bin/wgtrace-rewrite" "$work/bare/kernel.cc" -o "$work/bare/out" -- -std=c++17
check grep -q 'WGTRACE_WORKGROUP' "$work/bare/out/kernel.cc"

compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
for generator in Ninja "Unix Makefiles"; do
  dir="$work/cmake-${generator// /-}"
  sources="$dir-src"
  mkdir -p "$sources" && cp "$here/kernel.cc" "$here/kernel_config.h" "$here/unrelated.cc" "$sources/"
  cmake -G "$generator" -S "$here/cmake_project" -B "$dir" -DOUTSIDE_SOURCES="$sources" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$compiler" > "$dir.log" 2>&1 \
    || { cat "$dir.log"; exit 1; }
  cmake --build "$dir" -j 2 >> "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
  # Incremental: a header the kernel includes re-runs the kernel's rewrite
  # (once for each of the two targets that compile it), an unrelated
  # source re-runs its own only, and nothing re-runs either when nothing
  # changed.
  rebuild_rewrites() { cmake --build "$dir" -j 2 2>&1 | grep -c "wgtrace: instrumenting.*$1" || true; }
  check test "$(rebuild_rewrites '')" = 0
  sleep 1; touch "$sources/kernel_config.h"
  check test "$(rebuild_rewrites kernel.cc)" = 2
  sleep 1; touch "$sources/unrelated.cc"
  check test "$(rebuild_rewrites kernel.cc)" = 0
  WGTRACE_FILE="$dir/trace.bin" "$dir/outside" > /dev/null
  check grep -q 'add_one' <("$prefix/bin/wgtrace-view" dump "$dir/trace.bin")
  check test "$("$prefix/bin/wgtrace-view" dump "$dir/trace.bin" | grep -c '| LOAD ')" = 64
  # The static library instrumented from the directory above its own, its
  # links made with the plain signature: the program that links it gets
  # the runtime too.
  WGTRACE_FILE="$dir/plain.bin" "$dir/plain_links/plain_program" > /dev/null
  check test "$("$prefix/bin/wgtrace-view" dump "$dir/plain.bin" | grep -c '| LOAD ')" = 64
done

if [ -n "$python" ]; then
  check test -f "$prefix/$sitedir/wgtrace/__init__.py"
  # Only the installed package is importable: no build tree on the path,
  # run from a folder without a wgtrace package.
  if ! (cd "$work" && env -u PYTHONPATH PYTHONPATH="$prefix/$sitedir" "$python" - "$prefix" \
      "$work/cmake-Ninja/trace.bin" <<'EOF'
import sys
import wgtrace
prefix, trace = sys.argv[1:]
assert wgtrace.__file__.startswith(prefix), wgtrace.__file__
assert wgtrace._wgtrace.__file__.startswith(prefix), wgtrace._wgtrace.__file__
t = wgtrace.open(trace)
assert "add_one" in set(t.workgroups["kernel"]), t.workgroups
a = t.accesses()
assert (a["kind"] == wgtrace.LOAD).sum() == 64, a
assert t.summary(by="kernel")["loads"].sum() == 64
EOF
  ); then
    echo "FAIL: the installed Python module"; failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
fi

# A kernel with an error: the build fails, naming the original file and line.
bdir="$work/broken"
cmake -G Ninja -S "$here/cmake_broken" -B "$bdir" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$compiler" > "$bdir.log" 2>&1 || { cat "$bdir.log"; exit 1; }
if cmake --build "$bdir" > "$bdir.build.log" 2>&1; then
  echo "FAIL: the broken kernel built"; failed=$((failed + 1))
else
  check grep -q "cmake_broken/broken.cc:7:[0-9]*: error: use of undeclared identifier 'undeclared_value'" "$bdir.build.log"
fi

mdir="$work/make"
cp -r "$here/make_project" "$mdir"
cp "$here/kernel.cc" "$here/kernel_config.h" "$work/"
make -C "$mdir" PREFIX="$prefix" CXX="$compiler" > "$mdir.log" 2>&1 || { cat "$mdir.log"; exit 1; }
# Runs from the prefix with no LD_LIBRARY_PATH: the rpath from the .pc file.
check grep -q "R.*PATH.*\[$prefix/lib\]" <(readelf -d "$mdir/outside")
env -u LD_LIBRARY_PATH WGTRACE_FILE="$mdir/trace.bin" "$mdir/outside" > /dev/null
check test "$("$prefix/bin/wgtrace-view" dump "$mdir/trace.bin" | grep -c '| STORE ')" = 64

echo "$passed passed, $failed failed"
test "$failed" = 0
