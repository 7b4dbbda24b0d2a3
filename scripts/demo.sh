#!/usr/bin/env bash
# The main job: set up, build, run the instrumented simple_mul sample and
# dump its trace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh simple_mul wgtrace-view
mkdir -p build/samples/out
./build/samples/simple_mul --instrument_file=build/samples/out/simple_mul.bin
./build/bin/wgtrace-view dump build/samples/out/simple_mul.bin > build/samples/out/simple_mul.txt
head -n 24 build/samples/out/simple_mul.txt
echo "..."
echo "demo: $(grep -c '| LOAD ' build/samples/out/simple_mul.txt) loads, $(grep -c '| STORE ' build/samples/out/simple_mul.txt) stores; full dump in build/samples/out/simple_mul.txt"
