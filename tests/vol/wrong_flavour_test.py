#!/usr/bin/env python3
"""A VOL plugin built for another HDF5 flavour refuses to load, clearly (src/vol/hdf5_match.h).

    wrong_flavour_test.py PROBE WRONG_PLUGIN_DIR RIGHT_PLUGIN_DIR WORK

PROBE is a serial HDF5 program. With only the wrong (parallel) flavour's plugin on
HDF5_PLUGIN_PATH it must run without a crash or a corrupted call (HDF5 reports the connector
unavailable), with provio's one message naming both HDF5s, and write no provenance; with the wrong directory first and the right one after it, HDF5's plugin
search passes over the wrong plugin, the program succeeds and its file is recorded.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402

probe, wrong, right, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(tag, plugin_path):
    prov = os.path.join(work, "prov-" + tag)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "HDF5_"))}
    env.update(HDF5_PLUGIN_PATH=plugin_path, HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}", PROVIO_DIR=prov)
    r = subprocess.run([probe, os.path.join(work, tag + ".h5")], env=env, capture_output=True, text=True, timeout=60)
    recorded = "".join(zstd_raw.read_bytes(f).decode("utf-8", "replace")
                       for f in zstd_raw.raw_files(prov, recursive=True))
    return r, recorded


r, recorded = run("wrong", wrong)
# HDF5 reports the connector unavailable; 1.14 then carries on with the native connector.
check(r.returncode in (0, 1), f"wrong flavour alone: no crash, no corrupted calls (status {r.returncode})")
message = [line for line in r.stderr.splitlines() if line.startswith("provio: not loading this VOL plugin")]
check(len(message) == 1, f"one message from provio: {message or r.stderr[-2000:]}")
check(bool(message) and "serial" in message[0] and "parallel" in message[0],
      "the message names both flavours")
check("wrong.h5" not in recorded, "nothing recorded by a plugin that did not load")

r, recorded = run("both", wrong + ":" + right)
check(r.returncode == 0, f"wrong then right flavour: the program succeeds ({r.stderr[-2000:]})")
check("both.h5" in recorded, "its file is recorded by the right plugin")
sys.exit(1 if failures else 0)
