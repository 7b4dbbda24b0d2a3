#!/usr/bin/env python3
"""Runs every sample instrumented and writes, per run, into --out:
NAME.bin (the trace), NAME.txt (dump), NAME.summary.txt, NAME.races.txt
and NAME.html.

The histogram runs three times (NAME histogram_racy with --racy on
local-task, histogram_atomic with --atomic, and the fixed version); out_of_bounds is expected to die of SIGSEGV and
still leave its trace.
"""
import argparse
import os
import signal
import subprocess
import sys

RUNS = [  # (output name, program, arguments, expected exit status)
    ("simple_mul", "simple_mul", [], 0),
    ("matmul", "matmul", [], 0),
    ("stencil", "stencil", [], 0),
    ("transpose", "transpose", [], 0),
    ("histogram_racy", "histogram", ["--racy", "--device=local-task"], 0),
    ("histogram_atomic", "histogram", ["--atomic", "--device=local-task"], 0),
    ("histogram", "histogram", ["--device=local-task"], 0),
    ("simd", "simd", [], 0),
    ("span_template", "span_template", [], 0),
    ("helper", "helper", [], 0),
    ("out_of_bounds", "out_of_bounds", [], -signal.SIGSEGV),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", required=True, help="folder of the sample programs")
    parser.add_argument("--view", required=True, help="wgtrace-view")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    failed = 0
    for name, program, extra, expected in RUNS:
        trace = os.path.join(args.out, name + ".bin")
        run = subprocess.run([os.path.join(args.samples, program), "--instrument_file=" + trace] + extra,
                             env=env, capture_output=True, text=True)
        if run.returncode != expected:
            print("%-15s FAILED: exit %d, expected %d\n%s" % (name, run.returncode, expected, run.stderr))
            failed += 1
            continue
        outputs = []
        for suffix, command in ((".txt", ["dump", trace]),
                                (".summary.txt", ["summary", trace]),
                                (".races.txt", ["races", trace]),
                                (".html", ["html", trace, "-o", os.path.join(args.out, name + ".html")])):
            result = subprocess.run([args.view] + command, capture_output=True, text=True)
            if result.returncode not in (0, 1):  # races and the like exit 1 on findings
                print("%-15s wgtrace-view %s failed: %s" % (name, command[0], result.stderr.strip()))
                failed += 1
                continue
            if suffix != ".html":
                with open(os.path.join(args.out, name + suffix), "w") as f:
                    f.write(result.stdout)
            outputs.append(name + suffix)
        print("%-15s %s -> %s" % (name, (run.stdout.strip().splitlines() or ["(no output)"])[-1],
                                   ", ".join(outputs)))
    print("run_samples: %d of %d runs ok; outputs in %s" % (len(RUNS) - failed, len(RUNS), args.out))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
