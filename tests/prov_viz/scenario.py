"""Runs the DASSA scenario (seed 000) for prov-viz's tests: A writes WestSac.h5; B reads it and
writes decimate.h5; C reads decimate.h5 and writes detections.csv. B runs at trace level so the
report has per-call timeline bars; A and C at the default summary level."""
import os
import shutil
import subprocess
import sys


class Checks:
    """check(cond, msg) records a failure and goes on; finish() exits non-zero if any failed."""

    def __init__(self, test):
        self.test = test
        self.failures = []

    def __call__(self, cond, msg):
        if not cond:
            self.failures.append(msg)
            print("FAIL:", msg, file=sys.stderr)

    def finish(self):
        if self.failures:
            sys.exit(f"{self.test}: {len(self.failures)} check(s) failed")


def run_scenario(work, a, b, c):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prov = os.path.join(work, "prov")
    steps = [
        (a, {}, ["create:WestSac.h5:0", "write:WestSac.h5:/das/strain:4096x8", "write:WestSac.h5:/das/time:512x2",
                 "close:WestSac.h5:0"]),
        (b, {"PROVIO_LEVEL": "trace"}, ["open:WestSac.h5:0", "read:WestSac.h5:/das/strain:4096x8", "close:WestSac.h5:0",
                                        "create:decimate.h5:0", "write:decimate.h5:/dec:1024x4", "close:decimate.h5:0"]),
        (c, {}, ["open:decimate.h5:0", "read:decimate.h5:/dec:1024x4", "close:decimate.h5:0",
                 "create:detections.csv:0", "write:detections.csv:100"]),
    ]
    for program, extra, ops in steps:
        env = dict(os.environ, PROVIO_DIR=prov, **extra)
        env.pop("PROVIO_CONFIG", None)
        r = subprocess.run([program, *ops], cwd=work, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"{program} failed: {r.stderr}")
    return prov
