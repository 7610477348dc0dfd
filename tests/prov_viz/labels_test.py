#!/usr/bin/python3
"""prov-viz report cuts long labels between characters (issue 29, item 13): a file whose name is 45
two-byte characters, written by a real program under the preload library, is shown in the
report's charts as "…" and its last 39 characters, and the page is valid UTF-8.

  labels_test.py --viz PROV_VIZ --preload LIBPROVIO_POSIX --work DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

NAME = "é" * 45 + ".dat"


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--viz", "--preload", "--work"):
        ap.add_argument(opt, required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROVIO_")}
    raw = os.path.join(a.work, "raw")
    code = f"for n in ({NAME!r}, 'short.dat'): open(n, 'w').write('x' * 100)\n"
    subprocess.run(["/usr/bin/python3", "-c", code], cwd=a.work, check=True,
                   env={**env, "LD_PRELOAD": a.preload, "PROVIO_DIR": raw})
    report = os.path.join(a.work, "report.html")
    subprocess.run([a.viz, "report", "-o", report, raw], check=True, env=env)
    data = open(report, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        sys.exit(f"FAIL: the report is not UTF-8: {e}: {data[max(0, e.start - 40):e.end + 40]!r}")
    shown = "…" + NAME[-39:]
    if f">{shown}</text>" not in text:
        sys.exit(f"FAIL: the label is not '{shown}'")
    print("prov_viz_labels: ok")


if __name__ == "__main__":
    main()
