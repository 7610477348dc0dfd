"""prov-viz lineage: the DOT of the DASSA scenario has PROV's shapes and colours, readable
labels, collapsed activities with counts and bytes, and renders through Graphviz to SVG/PNG."""
import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scenario import Checks, run_scenario  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-viz", "a", "b", "c", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()
work = os.path.realpath(args.work)
prov = run_scenario(work, args.a, args.b, args.c)
check = Checks("prov_viz_lineage")


def viz(*a, expect=0):
    r = subprocess.run([args.prov_viz, *a], cwd=work, capture_output=True, text=True)
    if r.returncode != expect:
        sys.exit(f"prov-viz {' '.join(a)}: exit {r.returncode}, want {expect}: {r.stderr}")
    return r


viz("lineage", "decimate.h5", "--depth", "all", "-o", "up.dot", prov)
dot = open(os.path.join(work, "up.dot")).read()
nodes = {n: a for n, a in re.findall(r'^\s+(\w+) \[(.*)\];$', dot, re.M) if n not in ("node", "edge")}
labels = {n: re.search(r'label="([^"]*)"', attrs).group(1) for n, attrs in nodes.items()}
shapes = {n: re.search(r"shape=(\w+)", attrs).group(1) for n, attrs in nodes.items()}
ellipses = sorted(labels[n] for n in nodes if shapes[n] == "ellipse")
houses = sorted(labels[n].split(" ")[0] for n in nodes if shapes[n] == "house")
check(ellipses == ["WestSac.h5", "decimate.h5"], f"entities (ellipses): {ellipses}")
check(houses == ["dassa_a", "dassa_b"], f"programs (houses): {houses}")
check(all('fillcolor="#FFFC87"' in nodes[n] for n in nodes if shapes[n] == "ellipse"), "entities are PROV yellow")
check(all('fillcolor="#9FB1FC"' in nodes[n] for n in nodes if shapes[n] == "box"), "activities are PROV blue")
check(all('fillcolor="#FED37F"' in nodes[n] for n in nodes if shapes[n] == "house"), "agents are PROV orange")
boxes = [labels[n] for n in nodes if shapes[n] == "box"]
check(len(boxes) == 3, f"collapsed activities: A writes, B reads, B writes: {boxes}")
# B's 8 H5Dread + open + close of WestSac.h5: one "used" edge, 10 calls, 32 KiB.
check(re.search(r'-> n\d+ \[label="used\\n10×, 32.0 KiB"\]', dot) is not None, "used edge carries count and bytes")
check('wasGeneratedBy\\n11×, 33.0 KiB' in dot, "A's generation edge: 11 calls, 33 KiB")
check(not any("file://" in l or "urn:" in l for l in labels.values()), f"labels are short names: {labels}")

viz("lineage", "WestSac.h5", "--down", "--depth", "1", "-o", "down.dot", prov)
down = open(os.path.join(work, "down.dot")).read()
check("decimate.h5" in down and "dassa_b" in down and "dassa_c" not in down, "depth 1 down stops at B's outputs")

viz("lineage", "decimate.h5", "--both", "-o", "both.svg", prov)
svg = ET.parse(os.path.join(work, "both.svg")).getroot()
texts = " ".join(t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text"))
check("dassa_c" in texts and "dassa_a" in texts and "detections.csv" in texts, f"SVG has both directions: {texts}")
viz("lineage", "decimate.h5", "-o", "up.png", prov)
with open(os.path.join(work, "up.png"), "rb") as f:
    check(f.read(8) == b"\x89PNG\r\n\x1a\n", "PNG written")

r = viz("lineage", "nosuch.h5", "-o", "x.svg", prov, expect=2)
check(r.stderr.startswith("prov-viz: unknown entity: nosuch.h5"), f"unknown entity: {r.stderr!r}")
r = viz("lineage", "decimate.h5", "-o", "x.gif", prov, expect=1)
check("usage:" in r.stderr, "bad extension is misuse")
r = viz("lineage", "decimate.h5", "-o", "/nonexistent/dir/x.dot", prov, expect=2)
check(r.stderr.startswith("prov-viz: /nonexistent/dir/x.dot: cannot open"), f"unwritable output: {r.stderr!r}")
r = viz("--help")
check(r.stdout.startswith("usage: prov-viz"), "--help on stdout")

check.finish()
print("prov_viz_lineage: all checks passed")
