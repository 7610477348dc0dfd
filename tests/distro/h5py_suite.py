#!/usr/bin/env python3
"""h5py's own test suite natively and under provio's VOL connector, compared test by test.

    h5py_suite.py --plugins DIR --prov-merge PATH --work DIR [--levels summary,trace] [-- PYTEST ARGS]

Runs h5py's tests (pytest on the installed h5py's test directory) once natively, then once per provio level with HDF5_VOL_CONNECTOR
set and the plugin directory DIR on HDF5_PLUGIN_PATH. Every test id must have the same outcome
(passed, failed, skipped, xfailed, xpassed, error) in every run: the connector must not change
what h5py's tests see. Each traced run must also have recorded provenance that prov-merge
merges. Exit 0 when all agree, 1 with the differing test ids otherwise.
"""
import argparse
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

CONNECTOR = "provio under_vol=0;under_info={}"


def outcomes(junit):
    """{test id: outcome} from a pytest junit XML file."""
    result = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        test_id = f"{case.get('classname')}::{case.get('name')}"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed" if child.tag == "failure" else "error"
            elif child.tag == "skipped":
                outcome = "xfailed" if child.get("type") == "pytest.xfail" else "skipped"
        result[test_id] = outcome
    return result


def tests_dir():
    """The test directory of the h5py that `import h5py` gives. Debian ships a serial and an MPI
    build side by side (h5py._debian_h5py_serial, _mpi), whose test packages cannot be collected
    together (both add the option --no-network): `pytest --pyargs h5py` fails."""
    code = "import os, h5py.tests as t; print(os.path.dirname(t.__file__))"
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.strip()


def run_suite(name, env, work, pytest_args):
    junit = os.path.join(work, f"{name}.xml")
    log = os.path.join(work, f"{name}.log")
    started = time.monotonic()
    # In its own directory: h5py's tests make their files in the temporary directory.
    tmp = os.path.join(work, f"tmp-{name}")
    os.makedirs(tmp, exist_ok=True)
    env = dict(env, TMPDIR=tmp)
    with open(log, "w") as out:
        subprocess.run([sys.executable, "-m", "pytest", tests_dir(), "-q", "-rA", "-p", "no:cacheprovider",
                        f"--junitxml={junit}", *pytest_args], env=env, cwd=tmp, stdout=out, stderr=subprocess.STDOUT)
    if not os.path.exists(junit):
        sys.exit(f"h5py_suite: {name}: pytest wrote no results (see {log})")
    result = outcomes(junit)
    counts = {}
    for o in result.values():
        counts[o] = counts.get(o, 0) + 1
    print(f"h5py suite, {name}: {len(result)} tests in {time.monotonic() - started:.0f} s: "
          + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())), flush=True)
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugins", required=True)
    ap.add_argument("--prov-merge", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--levels", default="summary,trace")
    ap.add_argument("pytest_args", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "HDF5_VOL", "HDF5_PLUGIN"))}

    native = run_suite("native", base, args.work, args.pytest_args)
    if not native:
        sys.exit("h5py_suite: the native run found no tests")
    bad = False
    for level in args.levels.split(","):
        prov = os.path.join(args.work, f"prov-{level}")
        env = dict(base, HDF5_PLUGIN_PATH=os.path.abspath(args.plugins), HDF5_VOL_CONNECTOR=CONNECTOR,
                   PROVIO_DIR=prov, PROVIO_LEVEL=level)
        traced = run_suite(level, env, args.work, args.pytest_args)
        differ = sorted(t for t in native.keys() | traced.keys() if native.get(t) != traced.get(t))
        for t in differ:
            print(f"  differs at {level}: {t}: native {native.get(t, 'absent')}, connector {traced.get(t, 'absent')}")
        bad |= bool(differ)
        merged = os.path.join(args.work, f"{level}.ttl")
        r = subprocess.run([args.prov_merge, prov, "-o", merged], capture_output=True, text=True)
        size = os.path.getsize(merged) if os.path.exists(merged) else 0
        if r.returncode != 0 or size == 0:
            print(f"  {level}: prov-merge failed ({r.returncode}): {r.stderr.strip()}")
            bad = True
        else:
            h5 = sum(1 for line in open(merged, encoding="utf-8") if ".h5" in line)
            print(f"  {level}: same outcome for every test: {not differ}; provenance {size} bytes merged, "
                  f"{h5} lines naming .h5 files")
            bad |= h5 == 0
    print("h5py suite:", "DIFFERENT under the connector" if bad else "identical under the connector")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
