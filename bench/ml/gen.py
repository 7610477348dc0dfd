#!/usr/bin/python3
"""Writes a synthetic merged graph of a large hyperparameter sweep in the shape of
docs/workflow-api.md, for prov-query's ML questions: RUNS runs (tasks with a hyperparameter
setting) spread over programs of 100 runs each; per run EPOCHS epoch tasks of BATCHES nested
batch tasks, loss and accuracy per epoch for training and validation, and a checkpoint rewritten
every epoch (one provio:ModelReference per epoch). Every tenth run is resumed by a program of its
own that reads the checkpoint (H5Dread) under a configuration with another lr.

  gen.py OUT.ttl [--runs N] [--epochs E] [--batches B]

Prints the number of triples written.
"""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--runs", type=int, default=1000)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batches", type=int, default=10)
a = ap.parse_args()

NAMESPACES = {"rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
              "xsd": "http://www.w3.org/2001/XMLSchema#", "prov": "http://www.w3.org/ns/prov#",
              "provio": "http://www.w3.org/ns/provio#"}
HEAD = "".join(f"@prefix {name}: <{iri}> .\n" for name, iri in NAMESPACES.items())
clock = [0]


def now():
    """Strictly increasing µs timestamps."""
    clock[0] += 7
    us = clock[0]
    return f'"2026-01-01T{us // 3600000000:02d}:{us // 60000000 % 60:02d}:{us // 1000000 % 60:02d}.{us % 1000000:06d}Z"^^xsd:dateTime'


lines = 0


def emit(f, *triples):
    global lines
    for t in triples:
        f.write(t + " .\n")
    lines += len(triples)


def program(f, name):
    p = f"<urn:provio:run:bench:{name}:1>"
    th = f"<urn:provio:run:bench:{name}:1/thread/0>"
    emit(f, f"{p} rdf:type prov:Agent", f"{p} rdf:type provio:Program", f'{p} provio:executable "/usr/bin/{name}"',
         f"{th} rdf:type prov:Agent", f"{th} rdf:type provio:Thread", f"{th} prov:actedOnBehalfOf {p}")
    return p[1:-1], th


def config(f, p, n, lr):
    c = f"<{p}/config/{n}>"
    emit(f, f"{c} rdf:type prov:Entity", f"{c} rdf:type provio:Configuration", f"{c} rdf:type provio:HyperparameterSetting",
         f"{c} prov:wasAttributedTo <{p}>")
    for key, value in (("lr", f'"{lr}"^^xsd:double'), ("hidden", '"64"^^xsd:long')):
        k = f"<{p}/config/{n}/{key}>"
        emit(f, f"{c} provio:parameter {k}", f"{k} rdf:type provio:Parameter", f'{k} provio:key "{key}"',
             f"{k} provio:value {value}")
    return c


def task(f, p, th, n, label, parent=None):
    t = f"<{p}/task/{n}>"
    emit(f, f"{t} rdf:type prov:Activity", f"{t} rdf:type provio:Task", f'{t} rdfs:label "{label}"',
         f"{t} prov:wasAssociatedWith {th}", f"{t} prov:startedAtTime {now()}")
    if parent:
        emit(f, f"{t} provio:parentTask {parent}")
    return t


with open(a.out, "w") as f:
    f.write(HEAD)
    for r in range(a.runs):
        if r % 100 == 0:
            p, th = program(f, f"sweep{r // 100}")
            tn = mk = 0
        lr = 0.001 * (1 + r % 17)
        tn += 1
        run = task(f, p, th, tn, f"run-{r}")
        hp = config(f, p, tn, lr)
        emit(f, f"{run} prov:used {hp}")
        ckpt = f"<file:///scratch/ckpt/run-{r}.h5>"
        emit(f, f"{ckpt} rdf:type prov:Entity", f"{ckpt} rdf:type provio:File", f'{ckpt} provio:path "/scratch/ckpt/run-{r}.h5"')
        for e in range(1, a.epochs + 1):
            tn += 1
            epoch = task(f, p, th, tn, f"epoch {e}", run)
            for b in range(a.batches):
                tn += 1
                batch = task(f, p, th, tn, "batch", epoch)
                emit(f, f"{batch} prov:endedAtTime {now()}")
            emit(f, f"{epoch} prov:endedAtTime {now()}")
            for stage in ("Training", "Validation"):
                for name, value in (("loss", 1.0 / (e + r % 13)), ("accuracy", 1 - 1.0 / (e + 1 + r % 11))):
                    mk += 1
                    m = f"<{th[1:-1]}/metric/{mk}>"
                    emit(f, f"{m} rdf:type prov:Entity", f"{m} rdf:type provio:Metric", f'{m} provio:metricName "{name}"',
                         f'{m} provio:value "{value!r}"^^xsd:double', f'{m} provio:step "{e}"^^xsd:long',
                         f"{m} provio:stage provio:{stage}", f"{m} prov:wasGeneratedBy {run}",
                         f"{m} prov:generatedAtTime {now()}")
            mk += 1
            m = f"<{th[1:-1]}/model/{mk}>"
            emit(f, f"{m} rdf:type prov:Entity", f"{m} rdf:type provio:ModelReference", f"{m} provio:storedIn {ckpt}",
                 f"{m} provio:trainedWith {hp}",
                 f'{m} provio:step "{e}"^^xsd:long', f"{m} prov:wasGeneratedBy {run}", f"{m} prov:generatedAtTime {now()}")
        emit(f, f"{run} prov:endedAtTime {now()}")
        if r % 10 == 0:
            q, qth = program(f, f"resume{r}")
            resume = task(f, q, qth, 1, f"resume run-{r}")
            emit(f, f"{resume} prov:used {config(f, q, 1, lr * 2)}")
            d = f"<file:///scratch/ckpt/run-{r}.h5#/weights/W>"
            act = f"<{qth[1:-1]}/H5Dread/Read/e1>"
            emit(f, f"{d} rdf:type prov:Entity", f"{d} rdf:type provio:Dataset", f"{d} provio:inFile {ckpt}",
                 f"{act} rdf:type prov:Activity", f"{act} rdf:type provio:Read", f'{act} provio:api "H5Dread"',
                 f"{act} prov:wasAssociatedWith {qth}", f"{act} prov:used {d}", f"{d} provio:wasReadBy {act}",
                 f"{act} prov:startedAtTime {now()}", f"{resume} prov:endedAtTime {now()}")
print(lines)
