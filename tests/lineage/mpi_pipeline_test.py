"""A 64-rank, 3-step MPI pipeline through the VOL connector and the preload library together
(issue 13): acquire → decimate → decimate again, each `mpirun -np 64` (oversubscribed). Lineage
of the final file shows one node per job step with 64 ranks, and no plugin, MPI runtime or
library file; --by-rank shows the 192 program executions; the lineage graph and the report draw
3 program nodes; prov-query's answer agrees with an independent rdflib count of the ranks.

    mpi_pipeline_test.py --prov-query Q --prov-viz V --preload LIB --plugins DIR --mpiexec M
                         --acquire A --decimate D --work DIR [--ranks N]"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prov_query"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineage_env  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-query", "prov-viz", "preload", "plugins", "mpiexec", "acquire", "decimate", "work"):
    ap.add_argument("--" + name, required=True)
ap.add_argument("--ranks", type=int, default=64)
args = ap.parse_args()
n = args.ranks

work, prov = lineage_env.fresh_work(args.work)
env = lineage_env.clean_env(mpi=True)
traced = lineage_env.traced_ranks(args.preload, prov, args.plugins)
for step in ([args.acquire, "W.h5", "64", "64"], [args.decimate, "W.h5", "D.h5", "2"],
             [args.decimate, "D.h5", "D2.h5", "2", "/DAS/decimated"]):
    subprocess.run([args.mpiexec, "-np", str(n), *traced, *step], cwd=work, env=env, check=True, timeout=300,
                   capture_output=True)

pq = oracle.Tool(args.prov_query)
rows = pq.json("lineage", "D2.h5", "--up", "--depth", "all", prov, cwd=work)
progs = [r for r in rows if r["kind"] == "program"]
ents = [r for r in rows if r["kind"] == "entity"]
print("runs:", [(r["name"], r["ranks"], r.get("job")) for r in progs])
print("entities:", sorted({r["name"] for r in ents}))
check(len(progs) == 3, f"one node per job step: {[r['name'] for r in progs]}")
check(all(int(r["ranks"]) == n for r in progs), f"{n} ranks each: {[r['ranks'] for r in progs]}")
check(len({r["job"] for r in progs}) == 3, f"three jobs: {[r.get('job') for r in progs]}")
check(sorted(r["command"].split()[0].rsplit("/", 1)[-1] for r in progs) == ["acquire", "decimate", "decimate"],
      f"commands: {[r['command'] for r in progs]}")
noise = [r["name"] for r in ents if not r["name"].startswith(work)
         or re.search(r"\.so(\.|$)|/ompi\.|/prte\.|/pmix|\.locktest", r["name"])]
check(not noise, f"no plugin, MPI runtime or library file in the lineage: {noise}")
check({r["name"].split(" @")[0].split(":/")[0] for r in ents} == {os.path.join(work, f) for f in ("W.h5", "D.h5")},
      f"the pipeline's files: {sorted({r['name'] for r in ents})}")

# Independent count: the program executions rdflib finds generating D2.h5 and its ranks.
g = oracle.load([prov])
d2 = "file://" + os.path.join(work, "D2.h5")
writers = oracle.q(g, f"""SELECT DISTINCT ?p ?rank WHERE {{
    {{ <{d2}> prov:wasGeneratedBy ?a }} UNION {{ ?o provio:inFile <{d2}> ; prov:wasGeneratedBy ?a }}
    ?a prov:wasAssociatedWith/prov:actedOnBehalfOf ?p . ?p a provio:Program ; provio:rank/provio:rankNumber ?rank }}""")
check(len(writers) == n and {int(r[1]) for r in writers} == set(range(n)),
      f"rdflib: {n} program executions (ranks 0..{n - 1}) wrote D2.h5: {len(writers)}")

by_rank = pq.json("lineage", "D2.h5", "--up", "--depth", "all", "--by-rank", prov, cwd=work)
check(len([r for r in by_rank if r["kind"] == "program"]) == 3 * n, "--by-rank: every program execution")
table = pq.run("lineage", "D2.h5", "--up", prov, cwd=work).stdout
width = max(len(line) for line in table.splitlines())
print(table)
check("urn:provio" not in table and "file://" not in table, "no IRIs in the terminal table by default")
check(width <= 180, f"the table is narrow: {width} columns")

viz = oracle.Tool(args.prov_viz)
viz.run("lineage", "D2.h5", "--depth", "all", "-o", "up.dot", prov, cwd=work)
with open(os.path.join(work, "up.dot")) as f:
    dot = f.read()
houses = dot.count("shape=house")
check(houses == 3, f"the lineage graph draws 3 job nodes: {houses}")
check(f"\u00d7{n} ranks" in dot, "job nodes say their rank count")
viz.run("lineage", "D2.h5", "--depth", "all", "--by-rank", "-o", "ranks.dot", prov, cwd=work)
with open(os.path.join(work, "ranks.dot")) as f:
    check(f.read().count("shape=house") == 3 * n, "--by-rank draws every rank")
viz.run("report", "-o", "report.html", prov, cwd=work)
with open(os.path.join(work, "report.html")) as f:
    html = f.read()
check(html.count("shape=house") == 0, "the report inlines SVG, not DOT")
check(f"\u00d7{n} ranks" in html and "Time per run" in html, "the report shows runs")
check(html.count(">rank ") == 0, "no per-rank timeline rows by default")
oracle.finish("lineage.mpi_pipeline")
