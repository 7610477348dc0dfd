"""The rules of docs/ml-questions.md on a hand-written graph, for the cases real programs rarely
produce on cue: metrics recorded in nested tasks count for the run that used the hyperparameters;
validation is the default stage; a read loads the version recorded last before it (not the last
one); a reader whose configuration cannot be told (a program with several, no task) is listed
as could not be judged; reads before any version, and opens/closes, are not loads; the configuration of a
nested loader is its ancestor's."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "prov_query"))
import oracle  # noqa: E402
from oracle import check  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--prov-query", required=True)
ap.add_argument("--work", required=True)
a = ap.parse_args()
os.makedirs(a.work, exist_ok=True)
pq = oracle.Tool(a.prov_query)

# The oracle's SPARQL prefixes, as Turtle.
HEAD = "".join(f"@prefix {line[len('PREFIX '):]} .\n" for line in oracle.PREFIXES.splitlines()) + """
<file:///d/ckpt.h5> a prov:Entity, provio:File ; provio:path "/d/ckpt.h5" .
<file:///d/ckpt.h5#/w> a prov:Entity, provio:Dataset ; provio:inFile <file:///d/ckpt.h5> .
"""


def at(second):
    return f'"2026-01-01T00:00:{second:02d}.000000Z"^^xsd:dateTime'


def program(name):
    p = f"urn:provio:run:h:{name}:1"
    return p, (f"<{p}> a prov:Agent, provio:Program ; provio:executable \"/bin/{name}\" .\n"
               f"<{p}/thread/0> a prov:Agent, provio:Thread ; prov:actedOnBehalfOf <{p}> .\n")


def config(p, n, lr):
    c = f"<{p}/config/{n}>"
    return c, (f"{c} a prov:Entity, provio:Configuration, provio:HyperparameterSetting ; prov:wasAttributedTo <{p}> ;"
               f" provio:parameter {c[:-1]}/lr> .\n{c[:-1]}/lr> provio:key \"lr\" ; provio:value \"{lr}\"^^xsd:double .\n")


def task(p, n, label, start, end, parent=None, uses=()):
    t = f"<{p}/task/{n}>"
    body = (f"{t} a prov:Activity, provio:Task ; rdfs:label \"{label}\" ; prov:wasAssociatedWith <{p}/thread/0> ;"
            f" prov:startedAtTime {at(start)} ; prov:endedAtTime {at(end)} .\n")
    if parent:
        body += f"{t} provio:parentTask {parent} .\n"
    for c in uses:
        body += f"{t} prov:used {c} .\n"
    return t, body


def io(p, n, cls, rel, entity, second):
    act = f"<{p}/thread/0/io{n}>"
    return (f"{act} a prov:Activity, provio:{cls} ; provio:api \"H5D{cls.lower()}\" ; prov:wasAssociatedWith <{p}/thread/0> ;"
            f" prov:startedAtTime {at(second)} .\n{entity} provio:{rel} {act} .\n")


body = HEAD
# The trainer: run-a (lr 0.1) with epoch tasks at 10-19, 20-29, 30-39 s; each epoch records
# validation and (higher) training accuracy and a version of ckpt.h5. run-b reaches its best
# value (equal to run-a's) later.
P, text = program("train")
body += text
ca, text = config(P, 1, 0.1)
body += text
cb, text = config(P, 2, 0.2)
body += text
run_a, text = task(P, 1, "run-a", 10, 40, uses=[ca])
body += text
run_b, text = task(P, 2, "run-b", 41, 59, uses=[cb])
body += text
k = 0
for run, epochs in ((run_a, ((1, 10, 0.70), (2, 20, 0.90), (3, 30, 0.80))), (run_b, ((1, 41, 0.60), (2, 50, 0.90)))):
    for step, start, acc in epochs:
        k += 1
        e, text = task(P, 10 + k, f"epoch {step}", start, start + 8, parent=run)
        body += text
        for stage, value in (("Validation", acc), ("Training", round(acc + 0.05, 2))):
            body += (f"<{P}/thread/0/metric/{k}{stage}> a prov:Entity, provio:Metric ; provio:metricName \"accuracy\" ;"
                     f" provio:value \"{value}\"^^xsd:double ; provio:step \"{step}\"^^xsd:long ;"
                     f" provio:stage provio:{stage} ; prov:wasGeneratedBy {e} ; prov:generatedAtTime {at(start + 7)} .\n")
        if run == run_a:
            body += (f"<{P}/thread/0/model/{k}> a prov:Entity, provio:ModelReference ; provio:storedIn <file:///d/ckpt.h5> ;"
                     f" provio:trainedWith {ca} ; provio:step \"{step}\"^^xsd:long ; prov:wasGeneratedBy {e} ;"
                     f" prov:generatedAtTime {at(start + 8)} .\n")
        for b in range(2):
            _, text = task(P, 100 + 2 * k + b, "batch", start + 2 * b, start + 2 * b + 1 + b, parent=e)
            body += text
# A program with two configurations and no task reads the checkpoint: its configuration cannot
# be told, so its load is listed as could not be judged.
Q, text = program("inspect")
body += text + config(Q, 1, 0.3)[1] + config(Q, 2, 0.4)[1] + io(Q, 1, "Read", "wasReadBy", "<file:///d/ckpt.h5#/w>", 25)
# A resume (lr 0.5) whose nested eval task reads at 25 s: the version recorded last before it is
# step 1 (at 18 s; step 2 comes at 28 s). The eval uses no configuration: it runs with its
# parent's.
R, text = program("resume")
body += text
cr, text = config(R, 1, 0.5)
body += text
resume, text = task(R, 1, "resume", 24, 45, uses=[cr])
body += text
ev, text = task(R, 2, "eval", 24, 26, parent=resume)
body += text + io(R, 1, "Read", "wasReadBy", "<file:///d/ckpt.h5#/w>", 25)
body += io(R, 2, "Read", "wasReadBy", "<file:///d/ckpt.h5>", 44)  # a second read by resume: version 3
# Reads before any version, and opens/closes, are not loads.
E, text = program("early")
body += text
ce, text = config(E, 1, 0.7)
body += text
early, text = task(E, 1, "early", 1, 50, uses=[ce])
body += text + io(E, 1, "Read", "wasReadBy", "<file:///d/ckpt.h5>", 2)
body += io(E, 2, "Open", "wasOpenedBy", "<file:///d/ckpt.h5>", 45) + io(E, 3, "Close", "wasClosedBy", "<file:///d/ckpt.h5>", 46)

path = os.path.join(a.work, "rules.ttl")
with open(path, "w") as f:
    f.write(body)
oracle.load([path])  # parses with rdflib too

rows = pq.json("checkpoints", path)
got = sorted((r["step"], r["loaded_by"], r["differences"]) for r in rows)
unjudged = "(could not be judged: the loader declared no configuration, or several)"
check(got == [("1", "eval (resume)", "lr:0.1->0.5"), ("1", "inspect", unjudged),
              ("3", "resume (resume)", "lr:0.1->0.5")],
      f"checkpoints: the eval's load of step 1, inspect's unjudged one and the resume's of step 3, "
      f"nothing else: {rows}")

rows = pq.json("best", "--metric", "accuracy", path)
check([(r["run"], r["value"], r["step"], r["stage"]) for r in rows] == [("run-a", "0.9", "2", "validation"),
                                                                          ("run-b", "0.9", "2", "validation")],
      f"best: per run, validation by default, ties by time: {rows}")
check(rows and rows[0]["checkpoint_step"] == "2" and rows[0]["hyperparameters"] == "lr=0.1", f"best run-a: {rows}")
rows = pq.json("best", "--metric", "accuracy", "--stage", "training", "-k", "1", path)
check([(r["run"], r["value"]) for r in rows] == [("run-a", "0.95")], f"best --stage training: {rows}")
rows = pq.json("best", "--metric", "accuracy", "--final", path)
check([(r["run"], r["value"], r["step"]) for r in rows] == [("run-b", "0.9", "2"), ("run-a", "0.8", "3")],
      f"best --final: {rows}")

rows = pq.json("metrics", "--task-time", "batch", "--per", "step", path)
check([(r["run"], r["step"], r["n"], r["min"], r["max"]) for r in rows]
      == [("run-a", f"epoch {s}", "2", "1", "2") for s in (1, 2, 3)] + [("run-b", f"epoch {s}", "2", "1", "2") for s in (1, 2)],
      f"metrics --task-time batch --per step: {rows}")
rows = pq.json("metrics", "--per", "run", "--stage", "validation", path)
check([(r["run"], r["n"], r["min"], r["max"]) for r in rows] == [("run-a", "3", "0.7", "0.9"), ("run-b", "2", "0.6", "0.9")],
      f"metrics --per run: {rows}")
oracle.finish("ml.rules")
