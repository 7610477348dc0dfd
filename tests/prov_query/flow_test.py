"""prov-query flow on the DASSA pipeline (examples/dassa) run as a user runs it: acquire (2 ranks)
writes WestSac.h5, decimate (2 ranks) reads it and writes decimate.h5, analyze reads decimate.h5
twice (two runs). The flow names each MPI job step as one run: WestSac.h5's version goes from
acquire to decimate, decimate.h5's to both analyze runs (2 consumers: an input read many times);
the bytes produced and consumed are the counted bytes each run wrote and read on the file
(prov-query select, the same counting rule); nothing is produced that nobody read but by analyze's
leftovers, if any."""
import csv
import io
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, "..")]
import harness  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

args = harness.options("--prov-query", "--prov-run", "--mpiexec", "--acquire", "--decimate", "--analyze", "--work")
work = os.path.realpath(harness.fresh_dir(args.work))
env = harness.clean_env(mpi=True)
steps = [[args.mpiexec, "-n", "2", args.acquire, "WestSac.h5"],
         [args.mpiexec, "-n", "2", args.decimate, "WestSac.h5", "decimate.h5"],
         [args.analyze, "decimate.h5"], [args.analyze, "decimate.h5"]]
for step in steps:
    r = subprocess.run([args.prov_run, "-q", "-w", "dassa", "--", *step], cwd=work, env=env,
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        sys.exit(f"{step}: exit {r.returncode}: {r.stderr}")

pq = oracle.Tool(args.prov_query)


def table(*question):
    r = pq.run(*question, "-f", "csv", cwd=work)
    return list(csv.DictReader(io.StringIO(r.stdout)))


rows = table("flow")
files = [r for r in rows if r["kind"] in ("version", "file")]


def name(r):
    return os.path.basename(r["product"].split(" @")[0])


def program(run):
    return run.split()[0] if run else ""


edges = {(name(r), program(r["producer"]), program(r["consumer"])) for r in files}
check(("WestSac.h5", "acquire", "decimate") in edges, f"WestSac.h5 flows from acquire to decimate: {edges}")
check(("decimate.h5", "decimate", "analyze") in edges, f"decimate.h5 flows from decimate to analyze: {edges}")
west = [r for r in files if name(r) == "WestSac.h5" and program(r["consumer"]) == "decimate"]
dec = [r for r in files if name(r) == "decimate.h5" and program(r["producer"]) == "decimate"]
check(len(west) == 1 and west[0]["consumers"] == "1" and "2 ranks" in west[0]["producer"]
      and "2 ranks" in west[0]["consumer"], f"one WestSac.h5 version, one consumer, runs of 2 ranks: {west}")
check(len(dec) == 2 and {r["consumers"] for r in dec} == {"2"} and len({r["consumer"] for r in dec}) == 2,
      f"decimate.h5 read by the two analyze runs (read many times): {dec}")

# The bytes are the counted bytes each program wrote and read on the file, summed over its ranks.
moved = {}
for r in table("select", "--filter", "op=~^(Read|Write)$", "--agg", "sum:bytes", "--group-by", "program,file,op"):
    key = (program(r["program"]), os.path.basename(r["file"]), r["op"])
    moved[key] = moved.get(key, 0) + int(r["sum_bytes"])
check(west and int(west[0]["bytes_produced"]) == moved.get(("acquire", "WestSac.h5", "Write"))
      and int(west[0]["bytes_consumed"]) == moved.get(("decimate", "WestSac.h5", "Read")),
      f"WestSac.h5's bytes produced / consumed: {west} vs {moved}")
check(all(int(r["bytes_consumed"]) * 2 == moved.get(("analyze", "decimate.h5", "Read")) for r in dec)
      and all(int(r["bytes_produced"]) == moved.get(("decimate", "decimate.h5", "Write")) for r in dec),
      f"decimate.h5's bytes per analyze run: {dec} vs {moved}")
check(all(int(r["bytes_produced"]) > 0 for r in west + dec), f"bytes were moved: {west + dec}")
# Datasets flow too: the strain data acquire wrote, which decimate read.
datasets = {(r["product"].rsplit(":", 1)[-1], program(r["producer"]), program(r["consumer"])) for r in rows
            if r["kind"] == "dataset"}
check(any(p == "acquire" and c == "decimate" for _, p, c in datasets), f"datasets acquire → decimate: {datasets}")
# Nobody reads analyze's output or decimate.h5's last readers' results: unread rows have no consumer.
for r in rows:
    if not r["consumer"]:
        check(r["consumers"] == "0" and r["bytes_consumed"] == "", f"an unread product has no consumer: {r}")

oracle.finish("prov_query_flow")
