"""Issue 31, item 5: one counting rule in every tool. The C examples (DASSA's acquire -> decimate ->
analyze, h5bench's VPIC write and BD-CATS read on 2 ranks, the heat simulation) and the Python
ones (the ML sweep with HDF5 checkpoints, ProvLake's lifecycle) run under both layers, the VOL
connector and the preload library, so the POSIX calls HDF5 makes inside H5Dwrite and H5Dread are
recorded too (provio:nested). For each, the numbers of `prov-viz report` (its
headline cards, its files table, its bytes-per-file and time-per-rank charts; the HTML parsed)
equal prov-query's (`files`, `stats --by api|rank`), and the lineage picture's edges carry the
bytes prov-query counts, not 0.

    counting_test.py --prov-query Q --prov-viz V --preload LIB --plugins DIR --mpiexec M
                     --acquire A --decimate D --analyze Z --vpic-write W --bdcats-read R
                     --heat H --heat-cfg CFG --python-path DIR --train PY --h5ckpt LIB
                     --lifecycle PY --h5io LIB --work DIR"""
import argparse
import html.parser
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prov_query"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineage_env  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-query", "prov-viz", "preload", "plugins", "mpiexec", "acquire", "decimate", "analyze",
             "vpic-write", "bdcats-read", "heat", "heat-cfg", "python-path", "train", "h5ckpt", "lifecycle", "h5io",
             "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()

root, _ = lineage_env.fresh_work(args.work)
env = lineage_env.clean_env(mpi=True)
pq = oracle.Tool(args.prov_query)
viz = oracle.Tool(args.prov_viz)


def both_layers(prov):
    return {"PROVIO_DIR": prov, "LD_PRELOAD": args.preload, "HDF5_VOL_CONNECTOR": "provio",
            "HDF5_PLUGIN_PATH": args.plugins}


def run(work, prov, *step, ranks=0, python=False):
    layers = both_layers(prov)
    if python:
        layers["PYTHONPATH"] = args.python_path
    if ranks:
        traced = [x for k, v in layers.items() for x in ("-x", f"{k}={v}")]
        step = (args.mpiexec, "-np", str(ranks), *traced, *step)
        layers = {}
    subprocess.run(step, cwd=work, env=dict(env, **layers), check=True, timeout=120, capture_output=True)


def human_bytes(b):
    """prov-viz's human_bytes (lineage_dot.cc)."""
    units, v, u = ("B", "KiB", "MiB", "GiB", "TiB", "PiB"), float(b), 0
    while v >= 1024 and u < 5:
        v, u = v / 1024, u + 1
    return f"{b} B" if u == 0 else f"{v:.1f} {units[u]}"


def seconds_text(s):
    """prov-viz's seconds_text (report.cc)."""
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


class Report(html.parser.HTMLParser):
    """The report's cards ({caption: value}), its tables (lists of rows of cell texts, the header
    first, after the h2 id each follows) and its chart bars ({caption: [svg title text]})."""

    def __init__(self, text):
        super().__init__()
        self.cards, self.tables, self.charts = {}, {}, {}
        self.section = self.caption = None
        self.text, self.table, self.row, self.in_title = None, None, None, False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2":
            self.section = a.get("id")
        elif tag in ("b", "span", "td", "th", "figcaption", "title"):
            self.text = ""
        if tag == "table" and self.section not in self.tables:
            self.table = self.tables.setdefault(self.section, [])
        elif tag == "tr" and self.table is not None:
            self.row = []

    def handle_data(self, data):
        if self.text is not None:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "b":
            self.value = self.text
        elif tag == "span" and self.text is not None:
            self.cards[self.text] = self.value
        elif tag in ("td", "th") and self.row is not None:
            self.row.append(self.text)
        elif tag == "tr" and self.row is not None:
            self.table.append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None
        elif tag == "figcaption":
            self.caption = self.text
            self.charts[self.caption] = []
        elif tag == "title" and self.caption is not None:
            self.charts[self.caption].append(self.text)
        elif tag == "figure":
            self.caption = None
        if tag in ("b", "span", "td", "th", "figcaption", "title"):
            self.text = None


def report(prov, work, *opts):
    out = os.path.join(work, "report.html")
    viz.run("report", *opts, "-o", out, prov, cwd=work)
    with open(out, encoding="utf-8") as f:
        return Report(f.read())


def check_report(name, work, prov):
    """The report's numbers are prov-query's."""
    files = pq.json("files", prov, cwd=work)
    apis = pq.json("stats", "--by", "api", prov, cwd=work)
    ranks = pq.json("stats", "--by", "rank", prov, cwd=work)
    check(files, f"{name}: prov-query files answers")
    r = report(prov, work)
    want_cards = {"read": human_bytes(sum(int(f["bytes_read"]) for f in files)),
                  "written": human_bytes(sum(int(f["bytes_written"]) for f in files)),
                  "I/O calls": str(sum(int(a["calls"]) for a in apis))}
    for caption, want in want_cards.items():
        check(r.cards.get(caption) == want, f"{name}: the report's '{caption}' card is {r.cards.get(caption)}, "
                                            f"prov-query's {want}")
    # The files table keeps the files with the most bytes, the chart the top 10: each row and bar
    # shown is prov-query's for its file.
    by_path = {f["file"]: f for f in files}
    table = r.tables.get("files", [])
    header, rows = (table[0], table[1:]) if table else ([], [])
    check(len(rows) == min(len(files), 200), f"{name}: the report lists {len(rows)} of {len(files)} files")
    for row in rows:
        got = tuple(row[header.index(c)] for c in ("bytes_read", "bytes_written", "calls", "elapsed"))
        f = by_path.get(row[header.index("file")], {})
        want = tuple(f.get(c) for c in ("bytes_read", "bytes_written", "calls", "elapsed"))
        check(got == want, f"{name}: the report's files row {row} is prov-query's {want}")
    bars = r.charts.get("Bytes per file", [])
    check(len(bars) == min(len(files), 10), f"{name}: the bytes-per-file chart has {len(bars)} bars")
    for bar in bars:
        label, _, shown = bar.rpartition(": ")
        f = [x for x in files if x["file"] == label or x["file"].endswith("/" + label)]
        want = [human_bytes(int(x["bytes_read"]) + int(x["bytes_written"])) for x in f]
        check(want and shown == want[0], f"{name}: the bytes-per-file bar '{bar}' is prov-query's {want}")
    if ranks and ranks[0].get("rank"):
        by_rank = report(prov, work, "--by-rank")
        bars = sorted(by_rank.charts.get("Time per rank", []))
        want = sorted(f"{x.get('rank', '')}: {seconds_text(float(x['elapsed']))}" for x in ranks)
        check(bars == want, f"{name}: the time-per-rank chart {bars} is prov-query's stats --by rank {want}")
    return files


def edge_measures(dot):
    """[(relation, calls, bytes text)] of a lineage picture's I/O edges."""
    return [(m.group(1), int(m.group(2)), m.group(3))
            for m in re.finditer(r'label="(used|wasGeneratedBy)\\n(\d+)×, ([^"]+)"', dot)]


def example(name):
    work = os.path.join(root, name)
    os.makedirs(work)
    return work, os.path.join(work, "prov")


# DASSA: acquire raw.h5 -> decimate raw.h5 dec.h5 -> analyze dec.h5 result.h5.
work, prov = example("dassa")
run(work, prov, args.acquire, "raw.h5", "8", "256", ranks=2)
run(work, prov, args.decimate, "raw.h5", "dec.h5", "2", ranks=2)
run(work, prov, args.analyze, "dec.h5", "result.h5")
files = {os.path.basename(f["file"]): f for f in check_report("dassa", work, prov)}
dot_path = os.path.join(work, "lineage.dot")
viz.run("lineage", "dec.h5", "--up", "-o", dot_path, prov, cwd=work)
with open(dot_path, encoding="utf-8") as f:
    edges = edge_measures(f.read())
print("dec.h5 lineage edges:", edges)
check(edges and all(calls > 0 for _, calls, _ in edges), f"every I/O edge of dec.h5's lineage counts calls: {edges}")
check(any(rel == "used" and b == human_bytes(int(files["raw.h5"]["bytes_read"])) for rel, _, b in edges),
      f"decimate used the bytes prov-query counts read of raw.h5 ({files['raw.h5']['bytes_read']}): {edges}")
check(any(rel == "wasGeneratedBy" and b == human_bytes(int(files["dec.h5"]["bytes_written"]))
          for rel, _, b in edges),
      f"dec.h5 was generated with the bytes prov-query counts written ({files['dec.h5']['bytes_written']}): {edges}")

# h5bench: a VPIC-like write and a BD-CATS-like read of one file, 2 ranks each.
work, prov = example("h5bench")
run(work, prov, args.vpic_write, "particles.h5", "4096", "2", ranks=2)
run(work, prov, args.bdcats_read, "particles.h5", "4096", "2", ranks=2)
check_report("h5bench", work, prov)

# The heat simulation: a configuration file and an HDF5 output.
work, prov = example("simulation")
shutil.copy(args.heat_cfg, work)
run(work, prov, args.heat, os.path.basename(args.heat_cfg))
check_report("simulation", work, prov)

# The Python examples, through the build tree's package: the ML sweep with HDF5 checkpoints and
# ProvLake's three-phase lifecycle.
work, prov = example("ml_sweep")
run(work, prov, sys.executable, args.train, "--out", os.path.join(work, "out"), "--epochs", "2",
    "--h5ckpt", args.h5ckpt, python=True)
check_report("ml_sweep", work, prov)
work, prov = example("provlake")
for phase in ("curate", "prepare", "learn"):
    run(work, prov, sys.executable, args.lifecycle, phase, "--out", os.path.join(work, "data"), "--h5io", args.h5io,
        python=True)
check_report("provlake", work, prov)

oracle.finish("lineage.counting")
