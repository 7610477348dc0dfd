"""Seed 000's Megatron-LM check end to end (issue 17): train with configuration A writing a
checkpoint every iteration under one name, resume from it with configuration B (lr changed) and
with A again, each a separate program under the installed preload library and VOL connector.
`prov-query checkpoints` must report exactly one inconsistency, the B resume, naming lr and the
version it read; the graph is checked with rdflib."""
import os

from installed import Installed, arguments, oracle
from oracle import check, q

a = arguments(["--h5io"])
inst = Installed(a)
prov = os.path.join(a.work, "prov")
script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "megatron.py")
ckpt = os.path.join(a.work, "model.h5")
inst.python(prov, script, "train", "--config", "A", "--save", ckpt, "--h5io", a.h5io)
inst.python(prov, script, "resume", "--config", "B", "--load", ckpt, "--save", os.path.join(a.work, "model-b.h5"),
            "--h5io", a.h5io)
inst.python(prov, script, "resume", "--config", "A", "--load", ckpt, "--save", os.path.join(a.work, "model-a.h5"),
            "--h5io", a.h5io)
merged = inst.merged(prov, os.path.join(a.work, "merged.ttl"))
g = oracle.load([merged])

# The graph holds what the check needs: three versions of model.h5 trained with A, and H5Dread
# on its dataset by each resume program (the VOL connector's record of the load).
versions = q(g, """SELECT ?m ?step ?c WHERE { ?m a provio:ModelReference ; provio:storedIn ?f ; provio:step ?step ;
                   provio:trainedWith ?c . ?f provio:path ?p . FILTER(REGEX(?p, "/model[.]h5$")) } ORDER BY ?step""")
check([int(r[1]) for r in versions] == [1, 2, 3], f"versions of model.h5: {versions}")
readers = q(g, """SELECT DISTINCT ?prog WHERE { ?d provio:inFile ?f ; provio:wasReadBy ?a . ?a provio:api "H5Dread" ;
                  prov:wasAssociatedWith/prov:actedOnBehalfOf ?prog . ?f provio:path ?p .
                  FILTER(REGEX(?p, "/model[.]h5$")) }""")
check(len(readers) == 3, f"H5Dread of model.h5 by the trainer (read-back) and both resumes: {readers}")

rows = inst.query.json("checkpoints", merged)
check(len(rows) == 1, f"exactly one inconsistency: {rows}")
if rows:
    r = rows[0]
    check(r["checkpoint"] == os.path.realpath(ckpt), f"the checkpoint: {r}")
    check(r["differences"] == "lr:0.1->0.2", f"names the changed key: {r}")
    check(r["step"] == "3" and r["version"] == str(versions[-1][0]), f"the version read is the last one: {r}")
    check(r["loaded_by"].startswith("resume B (python3") and "megatron.py" in r["loaded_by"], f"loaded by the B resume: {r}")
    check(r["written_by"].startswith("iteration (python3") and "megatron.py" in r["written_by"],
          f"written by an iteration: {r}")
    hp_b = q(g, """SELECT ?c WHERE { ?c a provio:HyperparameterSetting ; rdfs:label "config B" }""")
    check(r["loaded_with"] == str(hp_b[0][0]), f"judged against the B resume's configuration: {r}")

# Megatron's usual layout: the resume saves where it loaded (--save == --load). Its own later
# versions (steps 4, 5, trained with B) must not hide the version it loaded (step 3, with A),
# and its read-backs of them are the writer's own reads.
prov2 = os.path.join(a.work, "prov-same-file")
ckpt2 = os.path.join(a.work, "same", "model.h5")
os.makedirs(os.path.dirname(ckpt2))
inst.python(prov2, script, "train", "--config", "A", "--save", ckpt2, "--h5io", a.h5io)
inst.python(prov2, script, "resume", "--config", "B", "--load", ckpt2, "--save", ckpt2, "--h5io", a.h5io)
merged2 = inst.merged(prov2, os.path.join(a.work, "merged-same-file.ttl"))
rows = inst.query.json("checkpoints", merged2)
check(len(rows) == 1 and rows[0]["differences"] == "lr:0.1->0.2" and rows[0]["step"] == "3"
      and rows[0]["loaded_by"].startswith("resume B ("), f"same-file resume: the A version it loaded: {rows}")

# Misuse of the new options: usage (exit 1) or a message naming what is missing (exit 2).
r = inst.query.run("metrics", "--per", "epoch", merged, expect=1)
check("--per takes run or step" in r.stderr, f"--per epoch refused: {r.stderr[:200]}")
r = inst.query.run("best", "--metric", "loss", "--stage", "dev", merged, expect=1)
check("unknown stage 'dev'" in r.stderr, f"--stage dev refused: {r.stderr[:200]}")
r = inst.query.run("metrics", "--selection", "lr", merged, expect=1)
check("malformed selection 'lr'" in r.stderr, f"--selection lr refused: {r.stderr[:200]}")
r = inst.query.run("best", "--metric", "loss", "--used", "no-such.h5", merged, expect=2)
check(r.stderr.startswith("prov-query: unknown entity: no-such.h5"), f"--used no-such.h5: {r.stderr}")
oracle.finish("ml.megatron_resume")
