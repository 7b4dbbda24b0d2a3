"""samples/python/transpose_plot.py runs the transpose sample and writes a
PNG that shows something."""

import os
import subprocess

import matplotlib.image
import numpy as np

from conftest import SAMPLES, clean_env

SCRIPT = os.environ["WGTRACE_TEST_PLOT_SCRIPT"]
PYTHON = os.environ["WGTRACE_TEST_PYTHON"]


def test_plot_is_written_and_not_blank(work):
    out = os.path.join(work, "transpose.png")
    env = clean_env({"PYTHONPATH": os.environ["PYTHONPATH"]})
    result = subprocess.run([PYTHON, SCRIPT, "--program", os.path.join(SAMPLES, "transpose"),
                             "--out", out], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert os.path.getsize(out) > 10000
    image = matplotlib.image.imread(out)
    height, width = image.shape[:2]
    assert width >= 1000 and height >= 300
    pixels = image[..., :3].reshape(-1, 3)
    colours = np.unique(np.round(pixels * 255).astype(np.uint8), axis=0)
    # White background, axes and text, and the workgroups' colours.
    assert len(colours) > 16
    white = np.all(pixels > 0.99, axis=1).mean()
    assert 0.2 < white < 0.95
    # The two footprint panels are filled: the middle row of each is mostly
    # coloured, not white.
    for left in (0.05, 0.38):
        row = image[height // 2, int(width * left):int(width * (left + 0.2)), :3]
        assert np.mean(np.all(row > 0.99, axis=1)) < 0.5
