"""The issue's reproductions on examples/ml_sweep (issue 17), through the installed package under
the installed preload library and VOL connector: `checkpoints` reports nothing (no checkpoint is
ever resumed), `best -k 3` gives three distinct runs in the right order with the checkpoint
version of each run's best epoch, `best --final` ranks last epochs, and `metrics --per run|step`
agree with rdflib."""
import os

from installed import Installed, arguments, oracle
from oracle import check, q

a = arguments(["--h5ckpt"])
inst = Installed(a)
prov = os.path.join(a.work, "prov")
train = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "examples", "ml_sweep", "train.py")
EPOCHS = 3
inst.python(prov, train, "--out", os.path.join(a.work, "out"), "--epochs", str(EPOCHS), "--h5ckpt", a.h5ckpt)
merged = inst.merged(prov, os.path.join(a.work, "merged.ttl"))
g = oracle.load([merged])

# rdflib: every validation accuracy record with its run (the task that generated it) and step.
records = {}
for task, label, step, value in q(g, """SELECT ?t ?label ?step ?v WHERE { ?m a provio:Metric ;
        provio:metricName "accuracy" ; provio:stage provio:Validation ; provio:step ?step ; provio:value ?v ;
        prov:wasGeneratedBy ?t . ?t rdfs:label ?label }"""):
    records.setdefault(str(label), {})[int(step)] = float(value)
check(len(records) == 6 and all(len(s) == EPOCHS for s in records.values()), f"6 runs x {EPOCHS} epochs: {records}")

rows = inst.query.json("checkpoints", merged)
check(rows == [], f"ml_sweep never resumes a checkpoint, yet: {rows[:5]} ({len(rows)} rows)")

best = {run: max(steps.values()) for run, steps in records.items()}
rows = inst.query.json("best", "--metric", "accuracy", "-k", "3", merged)
check(len(rows) == 3 and len({r["run"] for r in rows}) == 3, f"best -k 3: three distinct runs: {rows}")
want = sorted(best.values(), reverse=True)[:3]
check([float(r["value"]) for r in rows] == want, f"best -k 3 values {[r['value'] for r in rows]} vs {want}")
for r in rows:
    run = r["run"]
    check(float(r["value"]) == best.get(run), f"{run}: its best validation accuracy {best.get(run)}: {r}")
    first_best = min(s for s, v in records[run].items() if v == best[run])
    check(r["step"] == str(first_best) and r["checkpoint_step"] == str(first_best),
          f"{run}: the epoch and checkpoint version of its best value ({first_best}): {r}")
    check(r["stage"] == "validation" and "loss=" in r["evaluation"], f"{run}: validation, with its loss: {r}")
    check(r["checkpoint"] == os.path.realpath(os.path.join(a.work, "out", "checkpoints", f"{run}.h5")),
          f"{run}: its checkpoint file: {r}")

final = {run: steps[EPOCHS] for run, steps in records.items()}
rows = inst.query.json("best", "--metric", "accuracy", "--final", "-k", "all", merged)
check(sorted((float(r["value"]), r["run"]) for r in rows) == sorted((v, run) for run, v in final.items()),
      f"best --final: each run's last epoch: {rows} vs {final}")
check(all(r["step"] == str(EPOCHS) for r in rows), f"best --final: at the last step: {rows}")

rows = inst.query.json("metrics", "--per", "run", "--metric", "accuracy", "--stage", "validation", merged)
got = {r["run"]: (int(r["n"]), float(r["min"]), float(r["max"]), float(r["avg"])) for r in rows}
for run, steps in records.items():
    v = list(steps.values())
    w = (len(v), min(v), max(v), sum(v) / len(v))
    check(run in got and got[run][:3] == w[:3] and abs(got[run][3] - w[3]) < 1e-12, f"metrics --per run {run}: {got.get(run)} vs {w}")
rows = inst.query.json("metrics", "--per", "step", "--metric", "accuracy", "--stage", "validation", merged)
check(sorted((r["run"], int(r["step"]), r["n"], float(r["avg"])) for r in rows)
      == sorted((run, s, "1", v) for run, steps in records.items() for s, v in steps.items()),
      f"metrics --per step: one record per run and epoch: {rows}")
oracle.finish("ml.sweep")
