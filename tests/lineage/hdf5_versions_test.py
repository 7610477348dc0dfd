"""Issue 31, items 1 and 2: the DASSA pipeline on 2 ranks through MPI-IO (acquire raw.h5 ->
decimate raw.h5 dec.h5 -> analyze dec.h5 result.h5), then acquire raw_b.h5 and decimate raw_b.h5
dec.h5 again after result.h5 was made. Under the VOL connector alone, the preload library alone
or both (--layers), the lineage of result.h5 names neither raw_b.h5 nor the second decimate: the
file versions come from whichever layer saw the file. Where the connector ran, it also names the
datasets the result was computed from inside those versions (dec.h5:/DAS/decimated,
raw.h5:/DAS/strain); with both layers, each version the connector names at an open or a close is
the one the preload library names for the same content (checked with rdflib).

    hdf5_versions_test.py --layers vol|preload|both --prov-query Q --preload LIB --plugins DIR
                          --mpiexec M --acquire A --decimate D --analyze Z --work DIR"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prov_query"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineage_env  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--layers", choices=("vol", "preload", "both"), required=True)
for name in ("prov-query", "preload", "plugins", "mpiexec", "acquire", "decimate", "analyze", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()

work, prov = lineage_env.fresh_work(args.work)
env = lineage_env.clean_env(mpi=True)
layer_env = {"PROVIO_DIR": prov}
if args.layers in ("vol", "both"):
    layer_env.update(HDF5_VOL_CONNECTOR="provio", HDF5_PLUGIN_PATH=args.plugins)
if args.layers in ("preload", "both"):
    layer_env["LD_PRELOAD"] = args.preload
traced = [x for k, v in layer_env.items() for x in ("-x", f"{k}={v}")]


def mpi(*step):
    subprocess.run([args.mpiexec, "-np", "2", *traced, *step], cwd=work, env=env, check=True, timeout=120,
                   capture_output=True)


mpi(args.acquire, "raw.h5", "8", "256")
mpi(args.decimate, "raw.h5", "dec.h5", "2")
subprocess.run([args.analyze, "dec.h5", "result.h5"], cwd=work, env=dict(env, **layer_env), check=True,
               timeout=60, capture_output=True)
mpi(args.acquire, "raw_b.h5", "8", "256")
mpi(args.decimate, "raw_b.h5", "dec.h5", "2")

pq = oracle.Tool(args.prov_query)
rows = pq.json("lineage", "result.h5", "--up", "--depth", "all", prov, cwd=work)
names = sorted({r["name"] for r in rows if r["kind"] == "entity"})
progs = [r for r in rows if r["kind"] == "program"]
commands = sorted(" ".join(os.path.basename(w) for w in r["command"].split()) for r in progs)
print("entities:", names)
print("programs:", commands)
check(not any("raw_b.h5" in n for n in names), f"raw_b.h5, made after result.h5, is not an ancestor: {names}")
check(commands == ["acquire raw.h5 8 256", "analyze dec.h5 result.h5", "decimate raw.h5 dec.h5 2"],
      f"one run of each step, the first decimate only: {commands}")
for f in ("raw.h5", "dec.h5"):
    check(any(n.startswith(os.path.join(work, f) + " @") for n in names), f"a version of {f}: {names}")
if args.layers != "preload":
    for obj in ("dec.h5:/DAS/decimated", "raw.h5:/DAS/strain"):
        check(any(n.split(" @")[0] == os.path.join(work, obj) for n in names),
              f"the dataset {obj} the result was computed from: {names}")

if args.layers == "both":
    # One identity whichever layer saw the file: each version H5Fopen used and H5Fclose generated
    # is one that a POSIX call of the same program execution used or generated.
    g = oracle.load([prov])
    lonely = oracle.q(g, """SELECT DISTINCT ?api ?v WHERE {
        ?a provio:api ?api ; prov:wasAssociatedWith/prov:actedOnBehalfOf ?p .
        { ?a prov:used ?v } UNION { ?v prov:wasGeneratedBy ?a }
        ?v a provio:Version .
        FILTER (?api IN ("H5Fopen", "H5Fclose"))
        FILTER NOT EXISTS {
          ?b provio:api ?posix ; prov:wasAssociatedWith/prov:actedOnBehalfOf ?p .
          { ?b prov:used ?v } UNION { ?v prov:wasGeneratedBy ?b }
          FILTER (!STRSTARTS(?posix, "H5")) } }""")
    hdf5_versions = oracle.q(g, """SELECT DISTINCT ?v WHERE {
        ?a provio:api ?api . { ?a prov:used ?v } UNION { ?v prov:wasGeneratedBy ?a }
        ?v a provio:Version . FILTER (?api IN ("H5Fopen", "H5Fclose")) }""")
    check(len(hdf5_versions) >= 4, f"the connector named versions at opens and closes: {len(hdf5_versions)}")
    check(not lonely, f"every version the connector named, the preload library named too: {lonely}")
oracle.finish(f"lineage.hdf5_versions_{args.layers}")
