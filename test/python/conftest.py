"""Fixtures of the Python module's tests: real traces, written by the
instrumented samples (and a test kernel) of this build, and the build's
wgtrace-view to compare with.

ctest passes the locations in WGTRACE_TEST_* variables
(test/python/CMakeLists.txt)."""

import json
import os
import shutil
import subprocess

import pytest

SAMPLES = os.environ["WGTRACE_TEST_SAMPLES"]
VIEW = os.environ["WGTRACE_TEST_VIEW"]
WORK = os.environ["WGTRACE_TEST_WORK"]
VALUES_KERNEL = os.environ["WGTRACE_TEST_VALUES_KERNEL"]
CORPUS = os.environ["WGTRACE_TEST_CORPUS"]


def clean_env(extra=None):
    """The environment without the caller's WGTRACE_* settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    env.update(extra or {})
    return env


def run_traced(program, path, args=(), env=None):
    """Runs an instrumented program writing its trace to ``path``."""
    if os.path.exists(path):
        os.remove(path)
    result = subprocess.run([program, "--instrument_file=" + path] + list(args),
                            env=clean_env(env), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert os.path.exists(path), "%s wrote no trace" % program
    return path


def view(*args):
    """Runs wgtrace-view; returns (exit status, stdout, stderr)."""
    result = subprocess.run([VIEW] + [str(a) for a in args], capture_output=True, text=True,
                            errors="replace")
    return result.returncode, result.stdout, result.stderr


def view_json(*args):
    """The JSON report of wgtrace-view; races (1) and a trace that misses
    part of the run (3: lost records, untraced accesses) are reports too."""
    status, out, err = view(*args, "--json")
    assert status in (0, 1, 3), err
    report = json.loads(out)
    loss = report.get("loss") if isinstance(report, dict) else None
    if loss is not None and status != 1:
        assert (status == 3) == (loss["bytes_lost"] > 0 or loss["untraced_accesses"] > 0
                                 or loss["uninstrumented_launches"] > 0
                                 or loss["cut_short"]), (status, loss)
    return report


@pytest.fixture(scope="session")
def work():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    return WORK


class Traces:
    """Sample traces, written on first use."""

    RUNS = {  # name: (program, arguments, environment)
        "transpose": ("transpose", [], {}),
        "matmul": ("matmul", [], {}),
        "stencil": ("stencil", [], {}),
        "simple_mul": ("simple_mul", [], {}),
        "simd": ("simd", [], {}),
        "histogram_racy": ("histogram", ["--racy", "--device=local-task"],
                           {"WGTRACE_WORKERS": "2"}),
        "matmul_task": ("matmul", ["--device=local-task"], {"WGTRACE_WORKERS": "2"}),
        # Stream mode with small buffers: workgroups continue over chunks.
        "matmul_stream": ("matmul", [], {"WGTRACE_MODE": "stream",
                                         "WGTRACE_BUFFER_SIZE": "64kib"}),
        # A ring too small for the 8 MiB of records: it wraps, and only the
        # last workgroups survive.
        "matmul_wrapped": ("matmul", [], {"WGTRACE_BUFFER_SIZE": "2mib"}),
        "transpose_timed": ("transpose", ["--device=local-task"],
                            {"WGTRACE_TIMING": "1", "WGTRACE_WORKERS": "2"}),
        # One workgroup in 4 selected: the others write their WORKGROUP
        # record and the mark that says so.
        "transpose_sampled": ("transpose", [], {"WGTRACE_FILTER": "sample=4"}),
    }

    def __init__(self, folder):
        self.folder = folder
        self.paths = {}

    def __getitem__(self, name):
        if name not in self.paths:
            path = os.path.join(self.folder, name + ".bin")
            if name == "values":
                run_traced(VALUES_KERNEL, path)
            else:
                program, args, env = self.RUNS[name]
                run_traced(os.path.join(SAMPLES, program), path, args, env)
            self.paths[name] = path
        return self.paths[name]


@pytest.fixture(scope="session")
def traces(work):
    return Traces(work)
