"""The DASSA lineage question end to end: three real HDF5 programs (acquire → decimate → detect)
run unmodified under the provio VOL connector, and prov-query answers "where did decimate.h5
come from?" and "what came from WestSac.h5?" from the raw provenance directory, checked against
rdflib property paths on the same graph."""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402
from oracle import check, q  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-query", "stage", "plugins", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()
work = os.path.realpath(args.work)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
prov = os.path.join(work, "prov")
env = dict(os.environ, HDF5_PLUGIN_PATH=args.plugins, HDF5_VOL_CONNECTOR="provio", PROVIO_DIR=prov)
env.pop("PROVIO_CONFIG", None)
for stage in (["acquire", "WestSac.h5"], ["decimate", "WestSac.h5", "decimate.h5"], ["detect", "decimate.h5"]):
    r = subprocess.run([args.stage, *stage], cwd=work, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"h5_stage {stage[0]} failed: {r.stderr}")

pq = oracle.Tool(args.prov_query)
g = oracle.load([prov])
oracle.add_lineage_steps(g)
runs = {str(r[0]): str(r[1]) for r in q(g, "SELECT ?p ?cmd WHERE { ?p a provio:Program ; provio:commandLine ?cmd }")}
by_stage = {cmd.split()[1]: p for p, cmd in runs.items()}
check(set(by_stage) == {"acquire", "decimate", "detect"}, f"three program executions recorded: {runs}")
west, dec = "file://" + os.path.join(work, "WestSac.h5"), "file://" + os.path.join(work, "decimate.h5")

rows = pq.json("lineage", "decimate.h5", "--up", "--depth", "all", prov, cwd=work)
programs = {r["iri"] for r in rows if r["kind"] == "program"}
entities = {r["iri"] for r in rows if r["kind"] == "entity"}
check(programs == {by_stage["decimate"], by_stage["acquire"]}, f"decimate.h5 came from B and A: {rows}")
# The connector names file versions: the version of WestSac.h5 decimate opened, and the dataset inside it.
check(any(e.startswith(west + ";v=") for e in entities) and west + "#/das/strain" in entities,
      f"decimate.h5 came from WestSac.h5:/das/strain: {rows}")
check((entities, programs) == oracle.lineage(g, dec), f"lineage up vs rdflib: {(entities, programs)} {oracle.lineage(g, dec)}")
rows = pq.json("lineage", "WestSac.h5", "--down", prov, cwd=work)
programs = {r["iri"] for r in rows if r["kind"] == "program"}
entities = {r["iri"] for r in rows if r["kind"] == "entity"}
check(any(e.startswith(dec + ";v=") for e in entities) and by_stage["detect"] in programs
      and by_stage["acquire"] not in programs,
      f"WestSac.h5 went into decimate.h5 and C: {rows}")
check((entities, programs) == oracle.lineage(g, west, up=False), "lineage down vs rdflib")
rows = pq.json("lineage", "decimate.h5:/dec", prov, cwd=work)
check({r["iri"] for r in rows if r["kind"] == "program"} == {by_stage["decimate"], by_stage["acquire"]},
      f"lineage of the dataset decimate.h5:/dec: {rows}")

# The bytes the programs moved through H5Dwrite / H5Dread (doubles).
rows = pq.json("select", "--filter", "api=~^H5D(read|write)$", "--agg", "sum:bytes", "--group-by", "api,object", prov)
got = {(r["api"], r["object"].split(":", 1)[1] if ":" in r["object"] else r["object"]): int(r["sum_bytes"]) for r in rows}
want = {("H5Dwrite", "/das/strain"): 8192, ("H5Dwrite", "/das/time"): 512, ("H5Dread", "/das/strain"): 8192,
        ("H5Dwrite", "/dec"): 2048, ("H5Dread", "/dec"): 2048}
check(got == want, f"H5Dread/H5Dwrite bytes per dataset: {got}, want {want}")

oracle.finish("prov_query_vol_dassa")
