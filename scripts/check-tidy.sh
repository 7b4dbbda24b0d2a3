#!/usr/bin/env bash
# Fails when clang-tidy-19 reports anything, as .clang-tidy at the root
# configures it, in the project's own C++: the tracked sources under
# cli/, rewriter/, runtime/ and viewer/ and the headers there that they
# include.
# Usage: check-tidy.sh [BUILD_DIR] (default build/; it needs the build's
# compile_commands.json and its generated headers, so build it first).
# Sources built twice (the runtime again for the ThreadSanitizer tests, the
# decoder again for the fuzzer) are checked once, with the plain build's
# flags. Samples, benchmarks, tests and generated files are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
build_dir="$(cd "${1:-build}" && pwd)"
if [ ! -f "$build_dir/compile_commands.json" ]; then
  echo "check-tidy: no compile_commands.json in $build_dir" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A compilation database of the project's own sources, one entry each.
git ls-files 'cli/*.cpp' 'rewriter/*.cc' 'rewriter/*.cpp' 'runtime/*.cc' 'viewer/*.cc' \
  >"$work/tracked"
python3 - "$root" "$build_dir/compile_commands.json" "$work" <<'EOF'
import json, os, sys
root, database, work = sys.argv[1:]
tracked = [os.path.join(root, f) for f in open(os.path.join(work, "tracked")).read().split()]
chosen = {}
for entry in json.load(open(database)):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    if path not in tracked:
        continue
    flags = entry.get("command", " ".join(entry.get("arguments", [])))
    # Prefer the entry without sanitizers: the library as it ships.
    if path not in chosen or ("-fsanitize" in chosen[path][1] and "-fsanitize" not in flags):
        chosen[path] = (entry, flags)
missing = [f for f in tracked if f not in chosen]
if missing:
    print("check-tidy: not in the compilation database, not checked: "
          + " ".join(os.path.relpath(f, root) for f in missing), file=sys.stderr)
json.dump([entry for entry, _ in chosen.values()],
          open(os.path.join(work, "compile_commands.json"), "w"), indent=1)
with open(os.path.join(work, "files"), "w") as out:
    out.write("".join(f + "\n" for f in sorted(chosen)))
EOF
count=$(wc -l <"$work/files")
if [ "$count" -eq 0 ]; then
  echo "check-tidy: no project sources in $build_dir/compile_commands.json" >&2
  exit 2
fi

# Only the project's headers, not the generated ones in the build tree.
header_filter="^$root/(cli|rewriter|runtime|viewer)/"
jobs="$(nproc)"
start=$SECONDS
status=0
if command -v run-clang-tidy-19 >/dev/null; then
  # Its file arguments are regular expressions: match each path exactly.
  mapfile -t patterns < <(sed -e 's/[.+]/\\&/g' -e 's/.*/^&$/' "$work/files")
  run-clang-tidy-19 -clang-tidy-binary /usr/bin/clang-tidy-19 -p "$work" \
    -j "$jobs" -quiet -header-filter "$header_filter" \
    -warnings-as-errors '*' "${patterns[@]}" >"$work/log" 2>&1 || status=$?
else
  xargs -P "$jobs" -n 1 /usr/bin/clang-tidy-19 -p "$work" --quiet \
    --header-filter "$header_filter" --warnings-as-errors '*' \
    <"$work/files" >"$work/log" 2>&1 || status=$?
fi
if [ "$status" -ne 0 ] || grep -qE ': (warning|error): ' "$work/log"; then
  cat "$work/log"
  echo "check-tidy: clang-tidy reported problems (above)" >&2
  exit 1
fi
echo "check-tidy: $count files clean ($((SECONDS - start)) s, $jobs jobs)"
