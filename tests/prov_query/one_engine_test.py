"""One graph engine (issue 12): prov-query gives the same answer on an input X as on
`prov-merge X` and on the store prov-merge builds from X, for raw directories, merged files,
merged + raw, overlapping inputs and damaged files; and the three wrong answers the issue
reproduced (SPARQL over a raw directory without measures, a merged file + raw directory after a
further flush counted short, a killed job's cut last line refusing the whole input).

  one_engine_test.py --prov-query PQ --prov-merge PM --record RECORD_EVENTS --work DIR
"""
import csv
import io
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import harness  # noqa: E402
from harness import run  # noqa: E402

args = harness.options("--prov-query", "--prov-merge", "--record", "--work")
harness.fresh_dir(args.work)
check = harness.Checks()


def record(provio_dir, *opts):
    """Plain raw files (PROVIO_COMPRESS=none): the reproductions cut and extend their lines."""
    p = run([args.record, *opts], env={"PROVIO_DIR": provio_dir, "PROVIO_COMPRESS": "none"})
    assert p.returncode == 0, p.stderr


def raw_files(d):
    return sorted(os.path.join(r, n) for r, _, ns in os.walk(d) for n in ns if n.endswith(".ttl"))


def pq(*a):
    return run([args.prov_query, *a, "-q"])


def merge(inputs, out, store=None):
    extra = ["--store", store] if store else []
    return run([args.prov_merge, *inputs, "-o", out, *extra])


def calls(inputs, api="H5Dwrite"):
    """Total calls of `api` in `prov-query stats` over inputs (csv)."""
    p = pq("stats", "-f", "csv", *inputs)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    return p, sum(int(r["calls"]) for r in rows if r["api"] == api)


# Job 1 writes raw.h5 over 4 flushes (2 threads); job 2 reads it and writes out.h5.
d = args.work
job1, job2 = os.path.join(d, "job1"), os.path.join(d, "job2")
raw_h5, out_h5 = os.path.join(d, "raw.h5"), os.path.join(d, "out.h5")
record(job1, "--threads", 2, "--events", 3, "--flushes", 4, "--write", raw_h5)
record(job2, "--threads", 2, "--read", raw_h5, "--write", out_h5)

WORKFLOW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "workflow.ttl")
MEASURES = ("SELECT ?a ?c ?b ?e ?s ?t WHERE { ?a provio:count ?c ; provio:bytes ?b ; provio:elapsed ?e ; "
            "prov:startedAtTime ?s ; prov:endedAtTime ?t } ORDER BY ?a")

# --- Reproduction 1: SPARQL over a raw directory returns the folded measures.
p = pq("sparql", "-f", "csv", "-e", MEASURES, job1)
rows = list(csv.DictReader(io.StringIO(p.stdout)))
check(p.returncode == 0, f"sparql over a raw directory exited {p.returncode}: {p.stderr}")
check(len(rows) > 0, f"sparql over a raw directory: no measures ({p.stdout[:300]})")
m1 = os.path.join(d, "job1.nt")
assert merge([job1], m1).returncode == 0
q = pq("sparql", "-f", "csv", "-e", MEASURES, m1)
check(p.stdout == q.stdout, f"sparql measures: raw directory\n{p.stdout[:600]}\nvs merged\n{q.stdout[:600]}")

# --- Reproduction 2: a merged file of the first two flushes + the raw directory after further
# flushes: every call counted once, as prov-merge counts them (12 per writing thread).
snap = os.path.join(d, "snap")
os.makedirs(snap)
for f in raw_files(job1):
    lines = open(f).read().splitlines(True)
    cut = max(i for i, line in enumerate(lines) if "\\/p2 :count" in line)
    open(os.path.join(snap, os.path.basename(f)), "w").write("".join(lines[:cut + 1]))
s1 = os.path.join(d, "s1.ttl")
assert merge([snap], s1).returncode == 0
both = os.path.join(d, "s1_job1.nt")
assert merge([s1, job1], both).returncode == 0
_, want = calls([both])
p, got = calls([s1, job1])
check(p.returncode == 0 and want == 24 and got == want,
      f"merged + raw after a further flush: prov-query counts {got}, prov-merge {want} (rc {p.returncode}, {p.stderr})")

# --- Reproduction 3: a killed job's directory, its last line cut mid-statement: prov-query
# answers what is whole, reports the cut line as prov-merge does, and exits 2.
killed = os.path.join(d, "killed")
shutil.copytree(job1, killed)
victim = raw_files(killed)[-1]
text = open(victim).read()
lines = text.splitlines(True)
kept = len(lines) - 1
open(victim, "w").write(text[:sum(len(x) for x in lines[:kept]) + 25])
mk = os.path.join(d, "killed.nt")
pm = merge([killed], mk)
check(pm.returncode == 2, f"prov-merge on a cut file exited {pm.returncode}")
cut_msg = f"{victim}:{kept + 1}: truncated statement dropped (file ends mid-line)"
p = pq("stats", "-f", "csv", killed)
check(p.returncode == 2, f"prov-query stats on a cut file exited {p.returncode}, expected 2: {p.stderr}")
check(f"prov-query: {cut_msg}" in p.stderr.splitlines(), f"prov-query does not report the cut line: {p.stderr}")
check(f"prov-merge: {cut_msg}" in pm.stderr.splitlines(), f"prov-merge does not report the cut line: {pm.stderr}")
q = pq("stats", "-f", "csv", mk)
check(p.stdout == q.stdout and len(q.stdout.splitlines()) > 1,
      f"stats on the cut directory\n{p.stdout}\nvs its merge\n{q.stdout}")

# --- The invariant: every question, the same answer on X, on `prov-merge X` and on its store.
damaged_dir = os.path.join(d, "damaged")
shutil.copytree(job2, damaged_dir)
with open(raw_files(damaged_dir)[0], "a") as f:
    f.write("garbage tail\n")
QUESTIONS = [("lineage", raw_h5, "--up"), ("lineage", raw_h5, "--down"), ("lineage", raw_h5, "--depth", "1"),
             *[("stats", "--by", k) for k in ("api", "file", "object", "rank", "thread", "program")],
             ("stats", "--nested"), ("select",), ("select", "--agg", "sum:bytes", "--group-by", "api"),
             ("programs",), ("files",), ("objects", raw_h5), ("configs",), ("metrics",),
             ("best", "--metric", "accuracy"), ("checkpoints",), ("sparql", "-e", MEASURES)]
INPUTS = {"raw directory": [job1], "two raw directories": [job1, job2], "merged file": [m1],
          "merged + raw": [s1, job1, job2], "overlapping": [job1, m1, snap], "snapshot": [snap],
          "cut last line": [killed], "garbage line": [damaged_dir, job1],
          "workflow + raw": [WORKFLOW, job1]}
for name, inputs in INPUTS.items():
    merged = os.path.join(d, "inv_" + name.replace(" ", "_") + ".nt")
    store = os.path.join(d, "inv_" + name.replace(" ", "_") + ".store")
    pm = merge(inputs, merged, store)
    check(pm.returncode in (0, 2) and os.path.exists(merged), f"{name}: prov-merge failed: {pm.stderr}")
    for question in QUESTIONS:
        answers = {}
        for kind, x in (("input", inputs), ("merged", [merged]), ("store", [store])):
            p = pq(question[0], "-f", "csv", *question[1:], *x)
            answers[kind] = (p.stdout, p.returncode == pm.returncode if kind == "input" else p.returncode == 0)
            check(answers[kind][1], f"{name}: {' '.join(question)} on the {kind}: exit {p.returncode} {p.stderr}")
        check(answers["input"][0] == answers["merged"][0] == answers["store"][0],
              f"{name}: {' '.join(question)}: answers differ\ninput:\n{answers['input'][0][:500]}\n"
              f"merged:\n{answers['merged'][0][:500]}\nstore:\n{answers['store'][0][:500]}")

check.finish("ok")
