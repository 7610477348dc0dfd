"""ProvLake's queries Q1-Q6 (seed 002, Table I) end to end (issue 17): the three phases of
examples/provlake/lifecycle.py run as three programs under the installed preload library and VOL
connector with the installed package; each query is answered the way docs/ml-questions.md says
(a prov-query command or a SPARQL file of examples/provlake/queries through `prov-query sparql`)
and checked against an independent answer computed with rdflib on the same merged graph."""
import os
import subprocess
from collections import defaultdict

import rdflib
from rdflib.namespace import RDF, RDFS

from installed import SOURCE, Installed, arguments, oracle
from oracle import PROV, PROVIO, check

a = arguments(["--h5io"])
inst = Installed(a)
example = os.path.join(SOURCE, "examples", "provlake")
queries = os.path.join(example, "queries")
subprocess.run([os.path.join(example, "run_lifecycle.sh"), a.work, a.python, os.path.join(a.prefix, a.pydir),
                os.path.join(a.prefix, a.libdir, "libprovio_posix.so"), os.path.join(a.prefix, a.plugin_dir),
                inst.merge, a.h5io], check=True)
merged = os.path.join(a.work, "merged.ttl")
g = oracle.load([merged])
data = os.path.join(a.work, "data")
TRAIN = os.path.realpath(os.path.join(data, "train", "f3-inlines-0-31.npz"))
RAW = os.path.realpath(os.path.join(data, "raw", "netherlands.h5"))
MODEL = "classifier f3-inlines-0-31 lr=0.5"


def tasks_generating(e):
    return [t for t in g.objects(e, PROV.wasGeneratedBy) if (t, RDF.type, PROVIO.Task) in g]


def used_files(t):
    return [f for f in g.objects(t, PROV.used) if (f, RDF.type, PROVIO.File) in g]


def key_values(node, predicate):
    return {str(g.value(p, PROVIO.key)): g.value(p, PROVIO.value).toPython() for p in g.objects(node, predicate)}


def path_of(f):
    return str(g.value(f, PROVIO.path))


def sparql(name):
    return inst.query.json("sparql", os.path.join(queries, name), merged)


def pairs(text):
    """{key: float} of prov-query's "k=v k=v" cells."""
    return {k: float(v) for k, v in (kv.split("=", 1) for kv in text.split())}


def close(x, y):
    return abs(float(x) - float(y)) <= 1e-9 * max(1.0, abs(float(y)))


# rdflib, by navigation: a model's run -> training set -> preparation task -> raw file -> curation.
models = [m for m in g.subjects(RDFS.label, rdflib.Literal(MODEL)) if (m, RDF.type, PROVIO.ModelReference) in g]
check(len(models) == 3, f"three checkpoint versions of {MODEL}: {models}")
runs = {t for m in models for t in g.objects(m, PROV.wasGeneratedBy)}
trains = {f for r in runs for f in used_files(r) if tasks_generating(f)}
preps = {t for f in trains for t in tasks_generating(f)}
raws = {f for t in preps for f in used_files(t) if tasks_generating(f)}
check([path_of(f) for f in trains] == [TRAIN] and [path_of(f) for f in raws] == [RAW], f"lineage {trains} {raws}")

# Q1: coordinates, basin, field and slices of the raw file behind the model.
rows = sparql("q1.rq")
want = [{"raw": str(f), **{k: v for k, v in key_values(t, PROVIO.result).items()}}
        for f in raws for t in tasks_generating(f)]
check(len(rows) == 1 == len(want), f"Q1: one answer: {rows} vs {want}")
if rows and want:
    r, w = rows[0], want[0]
    check(r["raw"] == w["raw"] and r["basin"] == w["basin"] == "North Sea" and r["field"] == w["field"] == "F3 Block"
          and close(r["latitude"], w["latitude"]) and close(r["longitude"], w["longitude"])
          and int(r["inlines"]) == w["inlines"] == 64, f"Q1: {r} vs {w}")

# Q2: the data selection that generated the model's training set.
rows = sparql("q2.rq")
want = [key_values(c, PROVIO.parameter) for t in preps for c in g.objects(t, PROV.used)
        if (c, RDF.type, PROVIO.DataSelection) in g]
check(len(rows) == 1 == len(want), f"Q2: one answer: {rows} vs {want}")
if rows and want:
    r, w = rows[0], want[0]
    check(int(r["tile_size"]) == w["tile_size"] == 8 and close(r["noise_threshold"], w["noise_threshold"])
          and int(r["inline_first"]) == w["inline_first"] == 0 and int(r["inline_last"]) == w["inline_last"] == 31,
          f"Q2: {r} vs {w}")

# The runs that used the training set, and their validation metrics per epoch (rdflib).
train = next(iter(trains))
set_runs = {t for t in g.subjects(PROV.used, train) if (t, RDF.type, PROVIO.Task) in g}
check(len(set_runs) == 2, f"two runs used {TRAIN}: {set_runs}")
metrics = defaultdict(dict)  # (run label, metric) -> {step: value}
for m in g.subjects(RDF.type, PROVIO.Metric):
    t = g.value(m, PROV.wasGeneratedBy)
    if t in set_runs and g.value(m, PROVIO.stage) == PROVIO.Validation:
        metrics[(str(g.value(t, RDFS.label)), str(g.value(m, PROVIO.metricName)))][int(g.value(m, PROVIO.step))] = \
            float(g.value(m, PROVIO.value))

# Q3: hyperparameters and evaluation of the model with least loss trained on the set.
rows = inst.query.json("best", "--metric", "loss", "--min", "-k", "1", "--used", TRAIN, merged)
least = min((v, run, step) for (run, name), steps in metrics.items() if name == "loss" for step, v in steps.items())
check(len(rows) == 1, f"Q3: one row: {rows}")
if rows:
    r = rows[0]
    run_task = next(t for t in set_runs if str(g.value(t, RDFS.label)) == least[1])
    hp = [key_values(c, PROVIO.parameter) for c in g.objects(run_task, PROV.used)
          if (c, RDF.type, PROVIO.HyperparameterSetting) in g][0]
    check(r["run"] == least[1] and float(r["value"]) == least[0] and r["step"] == str(least[2]), f"Q3: {r} vs {least}")
    check(pairs(r["hyperparameters"]) == {k: float(v) for k, v in hp.items()}, f"Q3 hyperparameters: {r} vs {hp}")
    check(pairs(r["evaluation"]) == {"accuracy": metrics[(least[1], "accuracy")][least[2]]}, f"Q3 evaluation: {r}")
    check(r["checkpoint_step"] == str(least[2]) and r["checkpoint"].endswith(f"-lr{hp['lr']}.npz"),
          f"Q3 the checkpoint version of that epoch: {r}")

# Q4: min/avg/max time of each batch iteration inside each epoch (nested tasks), per run.
batches = defaultdict(list)  # (run label, epoch label) -> durations
for b in g.subjects(RDFS.label, rdflib.Literal("batch")):
    epoch = g.value(b, PROVIO.parentTask)
    run = g.value(epoch, PROVIO.parentTask)
    if run in set_runs:
        d = (g.value(b, PROV.endedAtTime).toPython() - g.value(b, PROV.startedAtTime).toPython()).total_seconds()
        batches[(str(g.value(run, RDFS.label)), str(g.value(epoch, RDFS.label)))].append(d)
check(len(batches) == 6 and all(len(v) == 4 for v in batches.values()), f"2 runs x 3 epochs x 4 batches: {batches}")
rows = inst.query.json("metrics", "--task-time", "batch", "--per", "step", "--used", TRAIN, merged)
got = {(r["run"], r["step"]): r for r in rows}
check(len(rows) == len(batches), f"Q4: one row per run and epoch: {rows}")
for key, d in batches.items():
    r = got.get(key, {})
    check(r.get("n") == str(len(d)) and close(r.get("min", -1), min(d)) and close(r.get("max", -1), max(d))
          and close(r.get("avg", -1), sum(d) / len(d)), f"Q4 {key}: {r} vs {d}")

# Q5: per-batch time per epoch and the evaluation metrics of the models trained on the set
# generated for inlines 0-31 (named by its data selection, not its file).
rows = inst.query.json("metrics", "--per", "step", "--task-time", "batch", "--metric", "loss,accuracy",
                       "--stage", "validation", "--selection", "inline_first=0,inline_last=31", merged)
got = {(r["run"], r["metric"], r["step"]): r for r in rows}
want = {(run, name, str(step)): v for (run, name), steps in metrics.items() for step, v in steps.items()}
check(len(rows) == len(batches) + len(want), f"Q5: batch times and metrics per run and epoch: {len(rows)} rows")
for key, v in want.items():
    r = got.get(key, {})
    check(r.get("n") == "1" and close(r.get("avg", -1), v), f"Q5 {key}: {r} vs {v}")
for (run, epoch), d in batches.items():
    r = got.get((run, "batch", epoch), {})
    check(close(r.get("avg", -1), sum(d) / len(d)), f"Q5 batch time {run} {epoch}: {r} vs {d}")

check(inst.query.json("metrics", "--selection", "inline_first=0,inline_last=30", merged) == [],
      "--selection with no matching data selection keeps no run")
rows = inst.query.json("best", "--metric", "loss", "--min", "--selection", "tile_size=8", "-k", "all", merged)
check(sorted(r["run"] for r in rows) == sorted(f"{s} lr={lr}" for s in ("f3-inlines-0-31", "f3-inlines-32-63")
                                               for lr in (0.05, 0.5)), f"--selection tile_size=8: {rows}")

# Q6: the raw file of that training set, with its slices, basin and field.
rows = sparql("q6.rq")
want = [(str(f), key_values(t, PROVIO.result)) for f in raws for t in tasks_generating(f)]
check(len(rows) == 1 == len(want), f"Q6: one answer: {rows} vs {want}")
if rows and want:
    r, (raw, res) = rows[0], want[0]
    check(r["raw"] == raw and int(r["inlines"]) == res["inlines"] and r["basin"] == res["basin"]
          and r["field"] == res["field"], f"Q6: {r} vs {want}")
oracle.finish("ml.provlake")
