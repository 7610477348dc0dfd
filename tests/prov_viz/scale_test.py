"""Issue 31, item 7: a lineage picture keeps its shape whatever the number of files. Under the
preload library, one shell writes in_1.dat ... in_N.dat, another concatenates them into all.dat
(N = 50 and 500). `prov-viz lineage all.dat --up --depth all` rendered by Graphviz to PNG stays
within a bounded size and aspect ratio: the N siblings are one node "in_*.dat @… ×N" whose tooltip
lists them. With --expand every file is its own node again (and the picture is the wide strip
siblings grouping avoids, which shows the bound can fail).

    scale_test.py --prov-viz V --preload LIB --work DIR"""
import argparse
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prov_query"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lineage"))
import lineage_env  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-viz", "preload", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()

root, _ = lineage_env.fresh_work(args.work)
env = lineage_env.clean_env()
viz = oracle.Tool(args.prov_viz)
MAX_SIDE, MAX_RATIO = 2000, 4.0


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is a PNG")
    return struct.unpack(">II", head[16:24])


for n in (50, 500):
    work = os.path.join(root, str(n))
    prov = os.path.join(work, "prov")
    os.makedirs(work)
    traced = dict(env, LD_PRELOAD=args.preload, PROVIO_DIR=prov)
    for script in (f"i=1; while [ $i -le {n} ]; do echo $i > in_$i.dat; i=$((i+1)); done", "cat in_*.dat > all.dat"):
        subprocess.run(["sh", "-c", script], cwd=work, env=traced, check=True, timeout=120)
    dot_path = os.path.join(work, "all.dot")
    viz.run("lineage", "all.dat", "--up", "--depth", "all", "-o", dot_path, prov, cwd=work)
    with open(dot_path, encoding="utf-8") as f:
        dot = f.read()
    group = re.search(r'label="in_\*\.dat @… ×(\d+)", tooltip="([^"]*)"', dot)
    check(group and group.group(1) == str(n), f"{n} files: one node in_*.dat @… ×{n}: {dot[:1500]}")
    if group:
        listed = group.group(2).split("\\n")
        check(listed[0].startswith(work + "/in_") and listed[-1] == f"… and {n - 40} more",
              f"{n} files: the tooltip lists the first 40 and says how many more: {listed[:2]} … {listed[-1]}")
    check(dot.count("shape=ellipse") <= 3, f"{n} files: a few entity nodes, not {dot.count('shape=ellipse')}")
    png = os.path.join(work, "all.png")
    viz.run("lineage", "all.dat", "--up", "--depth", "all", "-o", png, prov, cwd=work)
    w, h = png_size(png)
    print(f"{n} files: {png} {w} x {h} px")
    check(w <= MAX_SIDE and h <= MAX_SIDE and max(w, h) / min(w, h) <= MAX_RATIO,
          f"{n} files: the picture is {w} x {h} px, within {MAX_SIDE} px and a ratio of {MAX_RATIO}")
    if n == 50:
        expanded = os.path.join(work, "all_expanded.dot")
        viz.run("lineage", "all.dat", "--up", "--depth", "all", "--expand", "-o", expanded, prov, cwd=work)
        with open(expanded, encoding="utf-8") as f:
            text = f.read()
        check(text.count("in_") >= n and "×" + str(n) + '"' not in text,
              f"--expand draws each of the {n} files: {text.count('in_')} mentions")

oracle.finish("prov_viz.scale")
