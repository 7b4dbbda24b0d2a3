#!/usr/bin/env python3
"""Traces the transpose sample and draws what its workgroups did.

    PYTHONPATH=build/python python3 samples/python/transpose_plot.py \\
        --program build/samples/transpose --out transpose.png

Three panels in one PNG: the input matrix and the output matrix, each
element coloured by the workgroup that loaded (input) or stored (output) it
-- each workgroup's footprint: square tiles in, the same tiles transposed
out -- and the histogram of reuse distances of the cache-line accesses.
``--trace FILE`` plots an existing trace of the transpose sample instead of
running the program.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")  # files only, no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import wgtrace  # noqa: E402


def trace_transpose(program, path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    subprocess.run([program, "--instrument_file=" + path], env=env, check=True,
                   stdout=subprocess.DEVNULL)


def footprint_image(accesses, workgroup_colour):
    """A square image of the matrix the accesses walk (4-byte elements from
    the lowest address), each element the colour of its workgroup."""
    elements = (accesses["address"] - accesses["address"].min()) // 4
    side = int(np.sqrt(elements.max() + 1))
    image = np.full(side * side, -1, dtype=np.int64)
    image[elements] = workgroup_colour[accesses["workgroup"]]
    return np.ma.masked_less(image.reshape(side, side), 0)


def plot(trace, out):
    accesses = trace.accesses(kernel="transpose")
    workgroups = trace.workgroups
    # Neighbouring tiles get distinct colours: colour by tile position.
    colour = ((workgroups["wg_x"] * 3 + workgroups["wg_y"] * 5) % 16).to_numpy()
    loads = accesses[accesses["kind"] == wgtrace.LOAD]
    stores = accesses[accesses["kind"] == wgtrace.STORE]
    reuse = trace.reuse_distance()

    figure, axes = plt.subplots(1, 3, figsize=(15, 5))
    for axis, rows, title in ((axes[0], loads, "input: element loaded by workgroup"),
                              (axes[1], stores, "output: element stored by workgroup")):
        axis.imshow(footprint_image(rows, colour), cmap="tab20", interpolation="nearest",
                    vmin=0, vmax=19)
        axis.set_title(title)
        axis.set_xlabel("column")
        axis.set_ylabel("row")
    labels = ["%d-%d" % (lo, hi) if lo != hi else str(lo)
              for lo, hi in zip(reuse["min"], reuse["max"])]
    axes[2].bar(range(len(reuse)), reuse["count"], color="tab:blue")
    axes[2].set_xticks(range(len(reuse)))
    axes[2].set_xticklabels(labels, rotation=45, ha="right")
    axes[2].set_yscale("log")
    axes[2].set_title("reuse distance (64-byte lines; %d first uses)" % reuse.attrs["first_use"])
    axes[2].set_xlabel("distinct lines between two uses of a line")
    axes[2].set_ylabel("line accesses")
    figure.suptitle("transpose: %d workgroups, %d loads, %d stores"
                    % (len(workgroups), len(loads), len(stores)))
    figure.tight_layout()
    figure.savefig(out, dpi=80)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--program", help="the instrumented transpose sample")
    source.add_argument("--trace", help="a trace of the transpose sample")
    parser.add_argument("--out", required=True, help="the PNG to write")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        path = args.trace
        if args.program:
            path = os.path.join(scratch, "transpose.bin")
            trace_transpose(args.program, path)
        plot(wgtrace.open(path), args.out)
    print("wrote " + args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
