"""The DASSA scenario of seed 000, run for real: program A writes WestSac.h5, B reads it and
writes decimate.h5, C reads decimate.h5 and writes detections.csv; A runs in one job, B and C in
another (their own PROVIO_DIRs). prov-query's answers are checked against rdflib's SPARQL 1.1
(property paths) on the same graph and against what the programs really did."""
import argparse
import re
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402
from oracle import check, q  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-query", "a", "b", "c", "io", "work"):
    ap.add_argument("--" + name, required=True)
ap.add_argument("--prov-merge", help="also check prov-query on prov-merge's outputs (merged file and store)")
args = ap.parse_args()

work = os.path.realpath(args.work)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
prov = os.path.join(work, "prov")
env = dict(os.environ)
env.pop("PROVIO_CONFIG", None)

expected = {}  # api -> [calls, bytes]


def run(program, job, *ops, extra=None):
    e = dict(env, PROVIO_DIR=os.path.join(prov, job), **(extra or {}))
    r = subprocess.run([program, *ops], cwd=work, env=e, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{program} failed: {r.stderr}")
    for line in r.stdout.splitlines():
        api, calls, nbytes = line.split()
        t = expected.setdefault(api, [0, 0])
        t[0] += int(calls)
        t[1] += int(nbytes)


run(args.a, "job1", "create:WestSac.h5:0", "write:WestSac.h5:/das/strain:4096x8", "write:WestSac.h5:/das/time:512x2",
    "close:WestSac.h5:0")
# B records at trace level (one activity per call), the others at summary level: every answer
# must be the same whatever level produced the activities.
run(args.b, "job2", "open:WestSac.h5:0", "read:WestSac.h5:/das/strain:4096x8", "close:WestSac.h5:0",
    "create:decimate.h5:0", "write:decimate.h5:/dec:1024x4", "close:decimate.h5:0", extra={"PROVIO_LEVEL": "trace"})
run(args.c, "job2", "open:decimate.h5:0", "read:decimate.h5:/dec:1024x4", "close:decimate.h5:0",
    "create:detections.csv:0", "write:detections.csv:100")
run(args.io, "job3", "create:unrelated.h5:0", "write:unrelated.h5:/x:8x1")
# Three MPI-like ranks (rank from the launcher's environment) writing one shared file.
per_rank = {}
for rank in range(3):
    run(args.io, "job4", f"write:ranks.h5:/r:{1000 * (rank + 1)}x{rank + 2}", extra={"PMI_RANK": str(rank)})
    per_rank[str(rank)] = [rank + 2, 1000 * (rank + 1) * (rank + 2)]

pq = oracle.Tool(args.prov_query)
g = oracle.load([prov])
oracle.add_lineage_steps(g)
iri = {n: "file://" + os.path.join(work, n) for n in ("WestSac.h5", "decimate.h5", "detections.csv", "unrelated.h5")}
programs = {os.path.basename(str(r[1])): str(r[0]) for r in q(g, "SELECT ?p ?x WHERE { ?p a provio:Program ; provio:executable ?x }")}


def lineage_sets(rows):
    return ({r["iri"] for r in rows if r["kind"] == "entity"}, {r["iri"] for r in rows if r["kind"] == "program"})


# --- the two lineage answers, by name
rows = pq.json("lineage", "decimate.h5", "--up", "--depth", "all", prov, cwd=work)
names = " ".join(r["name"] for r in rows)
check("dassa_b" in names and "WestSac.h5" in names and "dassa_a" in names,
      f"lineage decimate.h5 --up names B, WestSac.h5 and A: {names}")
check("dassa_c" not in names and "unrelated" not in names, f"lineage decimate.h5 --up stays upstream: {names}")
rows = pq.json("lineage", "WestSac.h5", "--down", prov, cwd=work)
names = " ".join(r["name"] for r in rows)
check("decimate.h5" in names and "dassa_c" in names and "detections.csv" in names,
      f"lineage WestSac.h5 --down names decimate.h5 and C: {names}")
check("dassa_a" not in names, f"lineage WestSac.h5 --down does not name A: {names}")
levels = {r["name"]: int(r["level"]) for r in rows}
check(levels.get("dassa_c (pid " + "", None) is None, "levels keyed by label")
table = pq.run("lineage", "decimate.h5", prov, cwd=work).stdout
check("dassa_a" in table and table.splitlines()[1].startswith("-----"), f"table output:\n{table}")

# --- every file and object, both directions, all depths and depth 1: same sets as rdflib
entities = [str(r[0]) for r in q(g, "SELECT DISTINCT ?e WHERE { { ?e a provio:File } UNION { ?e a provio:Dataset } }")]
check(len(entities) == 10, f"8 files and datasets in the graph: {entities}")
for e in entities:
    for up in (True, False):
        for depth_one in (False, True):
            want = oracle.lineage(g, e, up=up, depth_one=depth_one)
            got = lineage_sets(pq.json("lineage", e, "--up" if up else "--down", "--depth", "1" if depth_one else "all",
                                       prov, cwd=work))
            check(got == want, f"lineage {e} up={up} depth1={depth_one}: got {got}, rdflib {want}")

# --- HDF5 object argument and a relative path from another directory
rows = pq.json("lineage", "decimate.h5:/dec", prov, cwd=work)
check({r["iri"] for r in rows if r["kind"] == "program"} == {programs["dassa_b"], programs["dassa_a"]},
      f"lineage decimate.h5:/dec: {rows}")
rows = pq.json("lineage", "decimate.h5", prov, cwd="/")
check(programs["dassa_a"] in {r["iri"] for r in rows}, "lineage by path suffix from another directory")

# --- stats totals equal what the programs did
rows = pq.json("stats", "--by", "api", prov, cwd=work)
got = {r["api"]: [int(r["calls"]), int(r["bytes"])] for r in rows}
check(got == expected, f"stats --by api: got {got}, programs did {expected}")
want = {str(r[0]): [int(r[1]), int(r[2]), str(r[3])] for r in q(g, """
    SELECT ?api (SUM(?c) AS ?calls) (SUM(?b) AS ?bytes) (SUM(?el) AS ?elapsed) WHERE {
      ?a a prov:Activity ; provio:api ?api ; provio:count ?c ; provio:bytes ?b ; provio:elapsed ?el } GROUP BY ?api""")}
got = {r["api"]: [int(r["calls"]), int(r["bytes"]), r["elapsed"]] for r in rows}
check({k: v[:2] for k, v in got.items()} == {k: v[:2] for k, v in want.items()}, f"stats --by api vs rdflib: {got} {want}")
check(all(abs(float(got[k][2]) - float(want[k][2])) < 1e-12 for k in want), f"elapsed vs rdflib: {got} {want}")

for by, key in (("file", "?f"), ("program", "?p"), ("object", "?e")):
    rows = pq.json("stats", "--by", by, prov, cwd=work)
    want = q(g, f"""SELECT {key} (SUM(?c) AS ?calls) (SUM(?b) AS ?bytes) WHERE {{
        ?a a prov:Activity ; provio:api ?api ; provio:count ?c ; provio:bytes ?b ;
           prov:wasAssociatedWith/prov:actedOnBehalfOf ?p .
        ?e ?rel ?a . FILTER(STRSTARTS(STR(?rel), STR(provio:was)))
        OPTIONAL {{ ?e provio:inFile ?f0 }} BIND(COALESCE(?f0, ?e) AS ?f) }} GROUP BY {key}""")
    check(len(rows) == len(want), f"stats --by {by}: {len(rows)} rows, rdflib {len(want)}")
    check(sorted((int(r["calls"]), int(r["bytes"])) for r in rows) == sorted((int(w[1]), int(w[2])) for w in want),
          f"stats --by {by} totals: {rows} vs {want}")
rows = pq.json("stats", "--by", "api", prov, os.path.join(prov, "job2"), cwd=work)
check({r["api"]: [int(r["calls"]), int(r["bytes"])] for r in rows} == expected,
      f"a directory given twice (job2 inside prov) counts once: {rows}")
rows = pq.json("stats", "--by", "rank", prov, cwd=work)
got = {r["rank"]: [int(r["calls"]), int(r["bytes"])] for r in rows if "rank" in r}
check(got == per_rank, f"stats --by rank: got {got}, the ranks did {per_rank}")
want = {str(r[0]): [int(r[1]), int(r[2])] for r in q(g, """SELECT ?n (SUM(?c) AS ?calls) (SUM(?b) AS ?bytes) WHERE {
    ?a a prov:Activity ; provio:api ?api ; provio:count ?c ; provio:bytes ?b ;
       prov:wasAssociatedWith/prov:actedOnBehalfOf/provio:rank/provio:rankNumber ?n } GROUP BY ?n""")}
check(got == want, f"stats --by rank vs rdflib: {got} vs {want}")
rows = pq.json("stats", "--by", "thread", prov, cwd=work)
want = q(g, """SELECT ?t (SUM(?c) AS ?calls) WHERE { ?a a prov:Activity ; provio:api ?api ; provio:count ?c ;
                 prov:wasAssociatedWith ?t } GROUP BY ?t""")
check(sorted(int(r["calls"]) for r in rows) == sorted(int(w[1]) for w in want), f"stats --by thread: {rows} vs {want}")
rows = pq.json("stats", "--by", "file", "--top", "1", prov, cwd=work)
check(len(rows) == 1 and rows[0]["file"].endswith("WestSac.h5"), f"stats --top 1 is the costliest file: {rows}")

# --- programs, files, objects
rows = pq.json("programs", prov, cwd=work)
want = {str(r[0]) for r in q(g, "SELECT ?p WHERE { ?p a provio:Program }")}
check({r["iri"] for r in rows} == want and len(want) == 7, f"programs: {rows} vs {want}")
rows = pq.json("files", prov, cwd=work)
want = {str(r[0]) for r in q(g, "SELECT ?f WHERE { ?f a provio:File }")}
check({r["iri"] for r in rows} == want, f"files: {rows} vs {want}")
byf = {r["iri"]: r for r in rows}
check(int(byf[iri["WestSac.h5"]]["bytes_written"]) == 4096 * 8 + 512 * 2, f"WestSac.h5 bytes written: {byf}")
check(int(byf[iri["WestSac.h5"]]["bytes_read"]) == 4096 * 8, f"WestSac.h5 bytes read: {byf}")
rows = pq.json("objects", "WestSac.h5", prov, cwd=work)
want = {str(r[0]) for r in q(g, f"SELECT ?o WHERE {{ ?o provio:inFile <{iri['WestSac.h5']}> }}")}
check({r["iri"] for r in rows} == want and len(want) == 2, f"objects WestSac.h5: {rows} vs {want}")

# --- select: projection, filter, aggregation, sort, limit
rows = pq.json("select", "--filter", "file=~WestSac", "--agg", "sum:bytes,count:*", "--group-by", "program",
               "--sort", "-sum_bytes", "--limit", "1", prov, cwd=work)
want = q(g, f"""SELECT ?p (SUM(?b) AS ?s) (COUNT(?a) AS ?n) WHERE {{
    ?a a prov:Activity ; provio:bytes ?b ; prov:wasAssociatedWith/prov:actedOnBehalfOf ?p .
    ?e ?rel ?a . FILTER(STRSTARTS(STR(?rel), STR(provio:was)))
    OPTIONAL {{ ?e provio:inFile ?f0 }} BIND(COALESCE(?f0, ?e) AS ?f) FILTER(?f = <{iri['WestSac.h5']}>)
  }} GROUP BY ?p ORDER BY DESC(?s) LIMIT 1""")
check(len(rows) == 1 and int(rows[0]["sum_bytes"]) == int(want[0][1]) and int(rows[0]["count_all"]) == int(want[0][2])
      and rows[0]["program"].startswith("dassa_a"), f"select group/agg/sort/limit: {rows} vs {want}")
# B's reads were traced: one row per call.
rows = pq.json("select", "--project", "api,bytes", "--filter", "bytes>=4096", "--filter", "op=Read", "--filter",
               "file=~WestSac", prov, cwd=work)
check(rows == [{"api": "H5Dread", "bytes": "4096"}] * 8, f"select project/filter: {rows}")
csv = pq.run("select", "--filter", "api=H5Dread", "--agg", "sum:bytes", "--group-by", "file", "--sort", "-sum_bytes",
             "-f", "csv", prov, cwd=work).stdout
want = f"file,sum_bytes\n{work}/WestSac.h5,32768\n{work}/decimate.h5,4096\n"
check(csv == want, f"select csv: {csv!r}, want {want!r}")

# --- sparql passthrough, JSON results vs rdflib
text = "SELECT ?e ?path WHERE { ?e a provio:File ; provio:path ?path } ORDER BY ?path"
rows = pq.json("sparql", "-e", text, prov, cwd=work)
want = [{"e": str(r[0]), "path": str(r[1])} for r in q(g, text)]
check(rows == want, f"sparql select: {rows} vs {want}")
check(pq.run("sparql", "-e", "ASK { ?p a provio:Program }", "-f", "csv", prov).stdout == "boolean\ntrue\n", "sparql ASK")
with open(os.path.join(work, "q.rq"), "w") as f:
    f.write("SELECT (COUNT(?a) AS ?n) WHERE { ?a a prov:Activity }\n")
rows = pq.json("sparql", os.path.join(work, "q.rq"), prov)
check(int(rows[0]["n"]) == len(q(g, "SELECT ?a WHERE { ?a a prov:Activity }")), f"sparql file: {rows}")

# --- the same answers from a merged Turtle file (the oracle's fold, serialised)
merged = os.path.join(work, "merged.ttl")
g2 = oracle.load([prov])
g2.serialize(merged, format="turtle")
rows = pq.json("stats", "--by", "api", merged)
check({r["api"]: [int(r["calls"]), int(r["bytes"])] for r in rows} == expected, f"stats on merged.ttl: {rows}")
check(lineage_sets(pq.json("lineage", iri["decimate.h5"], merged)) == oracle.lineage(g, iri["decimate.h5"]),
      "lineage on merged.ttl")
# Files load into prov-query's in-memory index; SPARQL loads them into Redland on demand.
text = "SELECT ?a ?api WHERE { ?a a prov:Activity ; provio:api ?api } ORDER BY ?a"
check(pq.json("sparql", "-e", text, merged) == [{"a": str(r[0]), "api": str(r[1])} for r in q(g2, text)],
      "sparql on merged.ttl vs rdflib")

# --- prov-merge's outputs: a merged Turtle file and a Redland store (bdb); the store's activity
# cache must give the same answers cold and warm.
if args.prov_merge:
    store, mfile = os.path.join(work, "store"), os.path.join(work, "pm.ttl")
    r = subprocess.run([args.prov_merge, "-q", "-o", mfile, "--store", store, prov], capture_output=True, text=True)
    check(r.returncode == 0, f"prov-merge: {r.stderr}")
    for source in (mfile, store, store):  # the store twice: cold, then from the cache
        rows = pq.json("stats", "--by", "api", source)
        check({r["api"]: [int(r["calls"]), int(r["bytes"])] for r in rows} == expected, f"stats on {source}: {rows}")
        check(lineage_sets(pq.json("lineage", iri["decimate.h5"], source)) == oracle.lineage(g, iri["decimate.h5"]),
              f"lineage on {source}")
        check(lineage_sets(pq.json("lineage", iri["WestSac.h5"], "--down", source))
              == oracle.lineage(g, iri["WestSac.h5"], up=False), f"lineage --down on {source}")
    check(os.path.exists(os.path.join(store, "prov-query-activities.tsv")), "store activity cache written")
    rows = pq.json("select", "--project", "program,file,bytes", "--filter", "op=Write", "--sort", "-bytes", "--limit", "1", store)
    check(rows and rows[0]["program"].startswith("dassa_a") and rows[0]["bytes"] == str(4096 * 8), f"select on store: {rows}")

# --- errors: one line naming what and where, non-zero exit
r = pq.run("lineage", "nosuch.h5", prov, cwd=work, expect=2)
check(r.stderr.startswith("prov-query: unknown entity: nosuch.h5") and r.stderr.count("\n") == 1, f"unknown entity: {r.stderr!r}")
r = pq.run("sparql", "-e", "SELECT ?x WHERE { ?x ?y }", prov, expect=1)
check(re.match(r"prov-query: -e: malformed SPARQL: 1:\d+: ", r.stderr), f"malformed sparql: {r.stderr!r}")
r = pq.run("stats", os.path.join(work, "missing.ttl"), expect=2)
check("missing.ttl: cannot open: No such file or directory" in r.stderr, f"missing file: {r.stderr!r}")
bad = os.path.join(work, "bad.ttl")
with open(bad, "w") as f:
    f.write("@prefix prov: <http://www.w3.org/ns/prov#> .\n<urn:a> prov:used <urn:b> .\n<urn:a> prov:used \n")
r = pq.run("stats", bad, expect=2)
check(r.stderr.startswith("prov-query: " + bad + ":") and re.search(r"bad\.ttl:[34]: (syntax error|truncated statement dropped)", r.stderr), f"truncated turtle: {r.stderr!r}")
r = pq.run("--help")
check(r.stdout.startswith("usage: prov-query") and r.stderr == "", "--help on stdout")
r = pq.run("lineage", "--help")
check("--depth" in r.stdout, "lineage --help")
r = pq.run(expect=1)
check("usage:" in r.stderr, "no command: usage on stderr, exit 1")
r = pq.run("stats", "--by", "colour", prov, expect=1)
check("unknown --by 'colour'" in r.stderr, f"bad --by: {r.stderr!r}")
r = pq.run("stats", "-o", "/dev/full", prov, expect=2)
check("/dev/full: write error: No space left on device" in r.stderr, f"output to /dev/full: {r.stderr!r}")

oracle.finish("prov_query_dassa")
