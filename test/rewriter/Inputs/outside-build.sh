#!/usr/bin/env bash
# Usage: outside-build.sh <input file> <command> [args...]
# Copies the input into a fresh directory under ${TMPDIR:-/tmp}, where no
# compile_commands.json lies above it (the build tree has one), and runs the
# command there with "@INPUT@" in its arguments replaced by the copy's name.
# Exits with the command's status; the directory is removed.
set -u
input=$1
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/wgtrace-lit-XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
cp "$input" "$dir/" || exit 99
name=$(basename "$input")
args=()
for a in "$@"; do args+=("${a//@INPUT@/$name}"); done
cd "$dir" && "${args[@]}"
