#!/usr/bin/env bash
# How much damage the decoder takes for data (docs/FORMAT.md, "Damage"):
# traces of the real runtime in ring mode (one that wrapped too, one of two
# workers' rings, which the reader reads on threads too), stream mode, with
# prints and with nested kernels, compressed (WGTRACE_COMPRESS) in both
# modes and of two workers when wgtrace-view reads them, damaged every way
# wgtrace-damage-corpus knows. Fails when a class of damage the format can
# detect had a record, or a census, accepted that the program did not write.
# Usage: damage_corpus_test.sh WGTRACE_DAMAGE_CORPUS TRACE_MODES_DRIVER [zstd]
set -uo pipefail
corpus=$1
driver=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

WGTRACE_FILE=$work/ring.bin "$driver" records 8 40 || exit 1
WGTRACE_FILE=$work/wrap.bin WGTRACE_BUFFER_SIZE=4kib WGTRACE_QUIET=1 \
  "$driver" records 16 100 || exit 1
WGTRACE_FILE=$work/stream.bin WGTRACE_MODE=stream WGTRACE_BUFFER_SIZE=4kib \
  "$driver" varied 12 60 || exit 1
WGTRACE_FILE=$work/nested.bin WGTRACE_MODE=stream WGTRACE_BUFFER_SIZE=4kib \
  "$driver" nested 4 64 || exit 1

# Two workers: two ring chunks, which the reader reads on threads too.
WGTRACE_FILE=$work/workers.bin WGTRACE_DEVICE=local-task WGTRACE_WORKERS=2 \
  "$driver" records 8 40 || exit 1

traces=("$work/ring.bin" "$work/wrap.bin" "$work/stream.bin" "$work/nested.bin"
  "$work/workers.bin")
if [ "${3:-}" = zstd ]; then
  WGTRACE_FILE=$work/ring-zstd.bin WGTRACE_COMPRESS=zstd \
    "$driver" records 8 40 || exit 1
  WGTRACE_FILE=$work/workers-zstd.bin WGTRACE_COMPRESS=zstd \
    WGTRACE_DEVICE=local-task WGTRACE_WORKERS=2 "$driver" records 8 40 || exit 1
  traces+=("$work/workers-zstd.bin")
  WGTRACE_FILE=$work/stream-zstd.bin WGTRACE_COMPRESS=zstd WGTRACE_MODE=stream \
    WGTRACE_BUFFER_SIZE=4kib "$driver" varied 12 60 || exit 1
  traces+=("$work/ring-zstd.bin" "$work/stream-zstd.bin")
fi

"$corpus" --check --seed "${DAMAGE_SEED:-1}" --samples "${DAMAGE_SAMPLES:-4}" \
  "${traces[@]}"
