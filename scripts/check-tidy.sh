#!/usr/bin/env bash
# Fails when clang-tidy-19 reports anything, as .clang-tidy at the root
# configures it, in the project's own C++: the tracked sources under cli/,
# rewriter/, runtime/ and viewer/ and the headers there that they include.
#
# Usage: check-tidy.sh [--all | --record | --update | --list] [BUILD_DIR]
#                                                     (default build/)
#   (no flag)  check every file that is not unchanged since the clean run
#              recorded in scripts/check-tidy.clean (see below)
#   --all      check every file: the full run
#   --record   the full run, then, if every file is clean, write
#              scripts/check-tidy.clean (commit it with the change)
#   --update   check what the default mode checks, then, if it is clean,
#              write scripts/check-tidy.clean as --record would: every
#              other file is unchanged since a clean run
#   --list     print the files the default mode would check, check none
#
# What "unchanged" means: scripts/check-tidy.clean lists, per source, a
# SHA-256 over clang-tidy's version, .clang-tidy, the options this script
# gives clang-tidy, the source's compile command (paths of the tree and the build made relative), the
# source's content and the content of every file of the tree (or generated
# in the build) that it includes, as the build's Ninja dependency log lists
# them. A source whose hash is listed was clean in the recorded full run
# with exactly these inputs, so clang-tidy would say the same again; any
# other source (new, edited, including an edited project header, compiled
# with other flags, or without dependency information, e.g. a build not
# made by Ninja) is checked.
#
# It needs the build's compile_commands.json, its generated headers and
# (for the record) its Ninja dependency log: build first. Sources built
# twice (the runtime again for the ThreadSanitizer tests, the decoder again
# for the fuzzer) are checked once, with the plain build's flags. Samples,
# benchmarks, tests and generated files are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
mode=changed
case "${1:-}" in
  --all) mode=all; shift ;;
  --record) mode=record; shift ;;
  --update) mode=update; shift ;;
  --list) mode=list; shift ;;
  -*) echo "check-tidy: unknown option $1 (--all, --record, --update, --list)" >&2; exit 2 ;;
esac
build_dir="$(cd "${1:-build}" && pwd)"
if [ ! -f "$build_dir/compile_commands.json" ]; then
  echo "check-tidy: no compile_commands.json in $build_dir" >&2
  exit 2
fi
tidy=/usr/bin/clang-tidy-19
record="$root/scripts/check-tidy.clean"
# Only the project's headers, not the generated ones in the build tree.
header_filter="^$root/(cli|rewriter|runtime|viewer)/"
# What clang-tidy is told besides the files (part of each file's key).
options=(-quiet -header-filter "$header_filter" -warnings-as-errors '*')

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git ls-files 'cli/*.cpp' 'rewriter/*.cc' 'rewriter/*.cpp' 'runtime/*.cc' \
  'viewer/*.cc' >"$work/tracked"
{
  "$tidy" --version
  printf '%s\n' "${options[@]}" | sed "s|$root|\$ROOT|g"
} >"$work/version"
if [ -f "$build_dir/build.ninja" ]; then
  ninja -C "$build_dir" -t deps >"$work/deps" 2>/dev/null || : >"$work/deps"
else
  : >"$work/deps"
fi
python3 - "$root" "$build_dir" "$work" "$mode" "$record" <<'EOF'
import hashlib, json, os, shlex, sys
root, build, work, mode, record = sys.argv[1:]
tracked = [os.path.join(root, f) for f in open(os.path.join(work, "tracked")).read().split()]

# One compile command per source, the one without sanitizers (the library
# as it ships) where there are two.
chosen = {}
for entry in json.load(open(os.path.join(build, "compile_commands.json"))):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    if path not in tracked:
        continue
    flags = entry.get("command") or " ".join(entry.get("arguments", []))
    if path not in chosen or ("-fsanitize" in chosen[path][1] and "-fsanitize" not in flags):
        chosen[path] = (entry, flags)
missing = [f for f in tracked if f not in chosen]
if missing:
    print("check-tidy: not in the compilation database, not checked: "
          + " ".join(os.path.relpath(f, root) for f in missing), file=sys.stderr)
json.dump([entry for entry, _ in chosen.values()],
          open(os.path.join(work, "compile_commands.json"), "w"), indent=1)

# The Ninja log's dependencies of each object file.
deps, current = {}, None
for line in open(os.path.join(work, "deps")):
    if line.startswith("    ") and current is not None:
        deps[current].append(line.strip())
    elif ": #deps" in line:
        target, status = line.split(": #deps", 1)
        current = os.path.normpath(os.path.join(build, target)) if "(VALID)" in status else None
        if current is not None:
            deps[current] = []
    else:
        current = None

def relative(path):
    """Tree and build paths as placeholders, so that keys agree across clones."""
    path = os.path.normpath(path)
    for base, name in ((build, "$BUILD"), (root, "$ROOT")):
        if path == base or path.startswith(base + os.sep):
            return name + path[len(base):]
    return None

def digest(data, path):
    data.update(b"\0" + relative(path).encode() + b"\0")
    with open(path, "rb") as f:
        data.update(f.read())

def key(source):
    entry, flags = chosen[source]
    words = shlex.split(flags)
    output = words[words.index("-o") + 1] if "-o" in words else None
    if output is None:
        return None
    included = deps.get(os.path.normpath(os.path.join(entry["directory"], output)))
    if included is None:
        return None
    data = hashlib.sha256()
    for path in (os.path.join(work, "version"), os.path.join(root, ".clang-tidy")):
        with open(path, "rb") as f:
            data.update(f.read())
    normalized = flags.replace(build, "$BUILD").replace(root, "$ROOT")
    data.update(b"\0flags\0" + normalized.encode() + b"\0directory\0"
                + (relative(entry["directory"]) or entry["directory"]).encode())
    digest(data, source)
    # Ninja lists dependencies as the compiler wrote them: relative to the
    # build directory where a compiler cache (ccache's base_dir) or the
    # generator made them so.
    project = sorted({p for p in (os.path.normpath(os.path.join(build, d))
                                  for d in included)
                      if relative(p) and p != source and os.path.isfile(p)})
    for path in project:
        digest(data, path)
    return data.hexdigest()

keys = {source: key(source) for source in chosen}
recorded = set()
if mode in ("changed", "list", "update") and os.path.isfile(record):
    for line in open(record):
        if line.strip() and not line.startswith("#"):
            recorded.add(tuple(line.split()[:2]))
to_check = sorted(s for s in chosen
                  if mode not in ("changed", "list", "update") or keys[s] is None
                  or (keys[s], os.path.relpath(s, root)) not in recorded)
with open(os.path.join(work, "files"), "w") as out:
    out.write("".join(f + "\n" for f in to_check))
with open(os.path.join(work, "keys"), "w") as out:
    unkeyed = [s for s in chosen if keys[s] is None]
    out.write("# Files clang-tidy found clean in a full run: scripts/check-tidy.sh\n"
              "# --record writes this; check-tidy.sh skips a file while its key\n"
              "# (see the script) is listed. Commit it with the change it records.\n")
    out.write("".join("%s %s\n" % (keys[s], os.path.relpath(s, root))
                      for s in sorted(chosen) if keys[s] is not None))
with open(os.path.join(work, "unkeyed"), "w") as out:
    out.write(" ".join(os.path.relpath(s, root) for s in sorted(chosen) if keys[s] is None))
with open(os.path.join(work, "counts"), "w") as out:
    out.write("%d %d %d\n" % (len(chosen), len(chosen) - len(to_check),
                              sum(1 for s in chosen if keys[s] is None)))
EOF
read -r total skipped unkeyed <"$work/counts"
if [ "$total" -eq 0 ]; then
  echo "check-tidy: no project sources in $build_dir/compile_commands.json" >&2
  exit 2
fi
if { [ "$mode" = record ] || [ "$mode" = update ]; } && [ "$unkeyed" -gt 0 ]; then
  echo "check-tidy: $unkeyed sources have no dependency information in" \
       "$build_dir (build it all with Ninja first): $(cat "$work/unkeyed");" \
       "cannot record" >&2
  exit 2
fi
count=$(wc -l <"$work/files")
if [ "$mode" = list ]; then
  sed "s|^$root/||" "$work/files"
  exit 0
fi

jobs="$(nproc)"
start=$SECONDS
status=0
if [ "$count" -gt 0 ]; then
  if command -v run-clang-tidy-19 >/dev/null; then
    # Its file arguments are regular expressions: match each path exactly.
    mapfile -t patterns < <(sed -e 's/[.+]/\\&/g' -e 's/.*/^&$/' "$work/files")
    run-clang-tidy-19 -clang-tidy-binary "$tidy" -p "$work" -j "$jobs" \
      "${options[@]}" "${patterns[@]}" >"$work/log" 2>&1 || status=$?
  else
    xargs -P "$jobs" -n 1 "$tidy" -p "$work" "${options[@]}" \
      <"$work/files" >"$work/log" 2>&1 || status=$?
  fi
  if [ "$status" -ne 0 ] || grep -qE ': (warning|error): ' "$work/log"; then
    cat "$work/log"
    echo "check-tidy: clang-tidy reported problems (above)" >&2
    exit 1
  fi
fi
if [ "$mode" = record ] || [ "$mode" = update ]; then
  cp "$work/keys" "$record"
  echo "check-tidy: $count files checked, all clean ($((SECONDS - start)) s, $jobs jobs); recorded in scripts/check-tidy.clean"
elif [ "$skipped" -gt 0 ]; then
  echo "check-tidy: $count files checked, all clean ($((SECONDS - start)) s, $jobs jobs); $skipped unchanged since the recorded clean run, skipped (--all checks every file)"
else
  echo "check-tidy: $count files checked, all clean ($((SECONDS - start)) s, $jobs jobs)"
fi
