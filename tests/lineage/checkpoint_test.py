"""Rotating checkpoint (issue 13): a training loop rewrites ckpt.h5 every epoch and an evaluation
step reads it after each (`ckpt train ckpt.h5 E; ckpt eval ckpt.h5 eval_E.txt`, E = 1..3, real
HDF5 programs under the VOL connector and the preload library together). Each version of ckpt.h5
has exactly one writer, the epoch that made it; the lineage of eval_2.txt is eval 2, the version
epoch 2 left, train 2, the version epoch 1 left, train 1 — never epoch 3 nor another evaluation.
Checked against an independent rdflib query."""
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
for name in ("prov-query", "preload", "plugins", "ckpt", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()

work, prov = lineage_env.fresh_work(args.work)
env = lineage_env.clean_env()
env.update(LD_PRELOAD=args.preload, PROVIO_DIR=prov, HDF5_VOL_CONNECTOR="provio", HDF5_PLUGIN_PATH=args.plugins)
for epoch in (1, 2, 3):
    for argv in ([args.ckpt, "train", "ckpt.h5", str(epoch)], [args.ckpt, "eval", "ckpt.h5", f"eval_{epoch}.txt"]):
        subprocess.run(argv, cwd=work, env=env, check=True, timeout=60)
with open(os.path.join(work, "eval_2.txt")) as f:
    check(f.read() == "epoch 2 w 2\n", "the scenario itself")

# rdflib: every version of ckpt.h5, the command lines of the programs that generated it, and of
# those that read it.
g = oracle.load([prov])
ckpt = "file://" + os.path.join(work, "ckpt.h5")
writers, readers = {}, {}
for v, cmd in oracle.q(g, f"""SELECT ?v ?cmd WHERE {{ ?v prov:specializationOf <{ckpt}> ; prov:wasGeneratedBy ?a .
        ?a prov:wasAssociatedWith/prov:actedOnBehalfOf ?p . ?p provio:commandLine ?cmd }}"""):
    writers.setdefault(str(v), set()).add(str(cmd).split(" ", 1)[1])
for v, cmd in oracle.q(g, f"""SELECT ?v ?cmd WHERE {{ ?v prov:specializationOf <{ckpt}> . ?a prov:used ?v .
        ?a prov:wasAssociatedWith/prov:actedOnBehalfOf ?p . ?p provio:commandLine ?cmd }}"""):
    readers.setdefault(str(v), set()).add(str(cmd).split(" ", 1)[1])
print("writers:", writers)
print("readers:", readers)
check(sorted(map(sorted, writers.values())) == [[f"train ckpt.h5 {e}"] for e in (1, 2, 3)],
      f"three versions, each with exactly one writer, its epoch: {writers}")
for v, (w,) in ((v, tuple(ws)) for v, ws in writers.items()):
    e = int(w.split()[-1])
    want = {f"eval ckpt.h5 eval_{e}.txt"} | ({f"train ckpt.h5 {e + 1}"} if e < 3 else set())
    check(readers.get(v) == want, f"the version train {e} left is read by {want}: {readers.get(v)}")

pq = oracle.Tool(args.prov_query)
for e in (1, 2, 3):
    rows = pq.json("lineage", f"eval_{e}.txt", "--up", "--depth", "all", prov, cwd=work)
    cmds = [r["command"].split(" ", 1)[1] for r in rows if r["kind"] == "program"]
    want = [f"eval ckpt.h5 eval_{e}.txt"] + [f"train ckpt.h5 {k}" for k in range(e, 0, -1)]
    check(cmds == want, f"lineage of eval_{e}.txt: {cmds}, want {want}")
    versions = [r["iri"] for r in rows if r["kind"] == "entity" and ";v=" in r["iri"]]
    for v in versions:
        check(v in writers, f"lineage of eval_{e}.txt names a version some epoch wrote: {v}")
    by_level = {int(r["level"]): r["command"].split(" ", 1)[1] for r in rows if r["kind"] == "program"}
    # the version eval_e read is the one train e left: rdflib's writer of that version
    first = [r["iri"] for r in rows if r["kind"] == "entity" and r["level"] == "1" and ";v=" in r["iri"]]
    check(len(first) == 1 and writers.get(first[0]) == {f"train ckpt.h5 {e}"},
          f"eval_{e}.txt read the version of train {e}: {first} {by_level}")
oracle.finish("lineage.checkpoint")
