#!/usr/bin/python3
"""Checks the provenance written by workflow_calls.c (and the C++ twin, workflow_calls_cpp.cc):
every workflow-API call produced exactly the triples of docs/workflow-api.md, hostile strings
and extreme numbers survive the round trip through rdflib, and misuse recorded nothing.

usage: check_workflow.py PROVDIR WORKDIR [VOCABULARY.ttl...]

With vocabulary files (docs/provio.ttl), every provio: term in the
output must be declared there, and every term of the workflow fragment must be typed, labelled,
commented and mapped (subclass / subproperty / domain or range / individual).
"""
import math, os, sys
from urllib.parse import quote

import rdflib
from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, XSD

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402

PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
PIO = rdflib.Namespace("http://www.w3.org/ns/provio#")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def check_vocabulary(g, files):
    v = rdflib.Graph()
    for f in files:
        v.parse(f, format="turtle")
    declared = set(v.subjects(RDF.type, None))
    used = set()
    for s, p, o in g:
        for t in (p, o) if p != RDF.type else (p, o):
            if isinstance(t, URIRef) and str(t).startswith(str(PIO)):
                used.add(t)
    missing = sorted(str(t) for t in used - declared)
    check(not missing, f"terms used but not declared in {files}: {missing}")
    frag = rdflib.Graph()
    frag.parse(files[-1], format="turtle")
    OWL = rdflib.OWL
    for t in set(frag.subjects(RDF.type, None)):
        if not str(t).startswith(str(PIO)) or (t, RDF.type, OWL.Ontology) in frag:
            continue
        check((t, RDFS.label, None) in frag and (t, RDFS.comment, None) in frag, f"{t}: label and comment")
        mapped = any((t, p, None) in frag for p in (RDFS.subClassOf, RDFS.subPropertyOf, RDFS.domain,
                                                     RDFS.range, OWL.oneOf)) or (t, RDF.type, OWL.NamedIndividual) in frag
        check(mapped, f"{t}: mapped onto PROV-O or typed as an individual")


def main():
    prov_dir, work = sys.argv[1], os.path.realpath(sys.argv[2])
    files = zstd_raw.raw_files(prov_dir)
    check(len(files) == 1, f"one thread file expected, found {files}")
    g = rdflib.Graph()
    for f in files:
        zstd_raw.parse(f, g)
    programs = list(g.subjects(RDF.type, PIO.Program))
    if len(programs) != 1:
        sys.exit(f"expected one program execution, found {programs}")
    x = str(programs[0])
    X = URIRef(x)
    TH = URIRef(x + "/thread/0")

    def has(s, p, o):
        check((s, p, o) in g, f"missing: {s} {p} {o!r}")

    def one(s, p):
        objs = list(g.objects(s, p))
        check(len(objs) == 1, f"{s} {p}: expected one object, found {objs!r}")
        return objs[0] if objs else None

    task = lambda n: URIRef(f"{x}/task/{n}")
    cfg = lambda n: URIRef(f"{x}/config/{n}")
    W = URIRef(x + "/workflow/1")
    ckpt = URIRef("file://" + quote(work + "/checkpoint.h5"))
    data = URIRef("file://" + quote(work + "/train data.bin"))
    dset = URIRef(str(ckpt) + "#/weights/layer%201")

    # workflow, campaign, program type, properties
    wf_name = "sweep \"\u03b1\"\n<wf>"
    for t in (PROV.Activity, PIO.Workflow):
        has(W, RDF.type, t)
    has(W, RDFS.label, Literal(wf_name))
    has(W, PIO.workflow, Literal(wf_name))
    has(W, PIO.campaign, Literal("campaign{1}"))
    has(X, PIO.workflow, Literal(wf_name))
    has(X, PIO.campaign, Literal("campaign{1}"))
    has(W, PROV.wasAssociatedWith, X)
    one(W, PROV.startedAtTime)
    one(W, PROV.endedAtTime)
    check(len(list(g.subjects(RDF.type, PIO.Workflow))) == 1, "one workflow: the second open was refused")
    ty = URIRef("urn:provio:type:ML%20training")
    has(X, PIO.programType, ty)
    has(ty, RDF.type, PIO.Type)
    has(ty, RDFS.label, Literal("ML training"))

    def kv(owner, link, node, key, value):
        has(owner, link, node)
        has(node, RDF.type, PIO.Parameter)
        has(node, PIO.key, Literal(key))
        vals = list(g.objects(node, PIO.value))
        check(vals == [value], f"{node}: value {vals!r}, expected {value!r}")

    kv(W, PIO.property, URIRef(str(W) + "/property/site"), "site", Literal("nersc"))
    kv(task(2), PIO.property, URIRef(str(task(2)) + "/property/note"), "note",
       Literal("18446744073709551616", datatype=XSD.integer))
    kv(X, PIO.property, URIRef(x + "/property/after"), "after", Literal(False))

    # tasks: 3 named + 64 nested "deep" ones; each begun and ended exactly once
    tasks = set(g.subjects(RDF.type, PIO.Task))
    check(len(tasks) == 3 + 64, f"67 tasks expected, found {len(tasks)}")
    for t in tasks:
        check(str(t).startswith(x + "/task/"), f"task IRI {t}")
        has(t, RDF.type, PROV.Activity)
        has(t, PROV.wasAssociatedWith, TH)
        one(t, PROV.startedAtTime)
        one(t, PROV.endedAtTime)
        one(t, RDFS.label)
    has(task(1), RDFS.label, Literal("outer"))
    has(task(2), RDFS.label, Literal("inner \\ task"))
    has(task(3), RDFS.label, Literal("child of outer"))
    has(task(2), PIO.parentTask, task(1))
    has(task(3), PIO.parentTask, task(1))
    check(not list(g.objects(task(1), PIO.parentTask)), "outer has no parent")
    for n in (1, 2, 3):
        has(task(n), PIO.inWorkflow, W)
    check(not list(g.objects(task(4), PIO.inWorkflow)), "deep tasks began after the workflow closed")
    has(task(5), PIO.parentTask, task(4))
    for t in (task(1), task(2)):
        check(one(t, PROV.startedAtTime).toPython() <= one(t, PROV.endedAtTime).toPython(), f"{t} times")

    # task inputs and outputs
    has(task(2), PROV.used, data)
    has(dset, PROV.wasGeneratedBy, task(2))
    has(dset, RDF.type, PIO.Dataset)
    has(dset, PIO.inFile, ckpt)
    has(data, PIO.path, Literal(work + "/train data.bin"))
    kv(task(2), PIO.parameter, URIRef(str(task(2)) + "/parameter/batch"), "batch", Literal(64, datatype=XSD.long))
    kv(task(2), PIO.result, URIRef(str(task(2)) + "/result/final%20loss"), "final loss",
       Literal("0.25", datatype=XSD.double))
    longv = list(g.objects(URIRef(str(task(2)) + "/parameter/long"), PIO.value))
    expect_long = "".join(chr(ord("a") + i % 26) for i in range(100000))
    check(len(longv) == 1 and str(longv[0]) == expect_long, "100 kB parameter value (overflow path)")

    # configurations: the invalid ones left nothing
    configs = set(g.subjects(RDF.type, PIO.Configuration))
    check(configs == {cfg(1), cfg(2)}, f"configurations {configs}")
    has(cfg(1), RDF.type, PIO.HyperparameterSetting)
    has(cfg(2), RDF.type, PIO.DataSelection)
    has(cfg(1), RDFS.label, Literal("hyper"))
    has(cfg(1), PROV.wasAttributedTo, X)
    has(task(2), PROV.used, cfg(1))
    has(task(2), PROV.used, cfg(2))
    has(task(1), PROV.used, cfg(2))
    hostile_key = "optimizer \"adam\"\n<x>"
    expected = {
        "lr": Literal("0.001", datatype=XSD.double),
        "epochs": Literal("-9223372036854775808", datatype=XSD.long),
        "seed": Literal("18446744073709551615", datatype=XSD.unsignedLong),
        "shuffle": Literal(True),
        hostile_key: Literal("a\tb\\c\"d\ufffd\ufffd end"),
        "huge": Literal("-123456789012345678901234567890", datatype=XSD.integer),
        "max": Literal("1.7976931348623157e+308", datatype=XSD.double),
        "neg inf": Literal("-INF", datatype=XSD.double),
        "input/file": data,
    }
    for key, value in expected.items():
        kv(cfg(1), PIO.parameter, URIRef(str(cfg(1)) + "/" + quote(key, safe="")), key, value)
    check(len(list(g.objects(cfg(1), PIO.parameter))) == len(expected), "config 1 has exactly its entries")
    check(not list(g.objects(cfg(2), PIO.parameter)), "config 2 is empty")
    seed = next(g.objects(URIRef(str(cfg(1)) + "/seed"), PIO.value))
    check(seed.toPython() == 2**64 - 1, "uint64 max round-trips")
    huge = next(g.objects(URIRef(str(cfg(1)) + "/huge"), PIO.value))
    check(huge.toPython() == -123456789012345678901234567890, "big integer round-trips")
    check(next(g.objects(URIRef(str(cfg(1)) + "/max"), PIO.value)).toPython() == 1.7976931348623157e308, "max double")

    # metrics: four, none NaN, none from the refused calls
    metrics = {str(m): m for m in g.subjects(RDF.type, PIO.Metric)}
    check(len(metrics) == 4, f"4 metrics expected, found {len(metrics)}")
    by_name = {}
    for m in metrics.values():
        has(m, RDF.type, PROV.Entity)
        has(m, PROV.wasGeneratedBy, task(2))
        one(m, PROV.generatedAtTime)
        v = one(m, PIO.value)
        check(v is not None and not math.isnan(v.toPython()), f"NaN or missing metric value {m}")
        by_name.setdefault(str(one(m, PIO.metricName)), []).append(m)
    check(sorted(by_name) == ["accuracy", "big", "loss"], f"metric names {sorted(by_name)}")
    acc = sorted(by_name.get("accuracy", []), key=lambda m: one(m, PIO.step).toPython())
    check([one(m, PIO.value).toPython() for m in acc] == [0.5, 0.75], "accuracy values")
    check([one(m, PIO.step).toPython() for m in acc] == [1, 2], "accuracy steps")
    for m in acc:
        has(m, PIO.stage, PIO.Validation)
        has(m, RDF.type, PIO.ModelEvaluation)
    (loss,) = by_name.get("loss", [None])
    check(loss is not None and not list(g.objects(loss, PIO.step)) and not list(g.objects(loss, PIO.stage)),
          "loss has neither step nor stage")
    check(loss is not None and (loss, RDF.type, PIO.ModelEvaluation) not in g, "no stage: not a ModelEvaluation")
    check(loss is not None and one(loss, PIO.value).toPython() == 1e-300, "tiny double")
    (big,) = by_name.get("big", [None])
    check(big is not None and one(big, PIO.value).toPython() == math.inf, "infinite metric")
    check(big is not None and one(big, PIO.step).toPython() == 2**63 - 1, "int64 max step")
    check(big is not None and (big, PIO.stage, PIO.Testing) in g, "testing stage")

    # models and datasets
    models = list(g.subjects(RDF.type, PIO.ModelReference))
    check(len(models) == 2, f"2 models expected, found {models}")
    named = [m for m in models if (m, RDFS.label, Literal("mlp")) in g]
    check(len(named) == 1, "model 'mlp'")
    if named:
        m = named[0]
        has(m, PIO.storedIn, dset)
        has(m, PIO.trainedWith, cfg(1))
        has(m, PIO.step, Literal(2, datatype=XSD.long))
        has(m, PROV.wasGeneratedBy, task(2))
        has(m, PROV.wasAttributedTo, X)
    other = [m for m in models if m not in named]
    if other:
        m = other[0]
        has(m, PIO.storedIn, ckpt)
        check(not list(g.objects(m, PROV.wasGeneratedBy)), "model outside a task has no generating task")
        check(not list(g.objects(m, PIO.trainedWith)), "model without configuration")
        check(not list(g.objects(m, RDFS.label)), "model without a name")
    datasets = list(g.subjects(RDF.type, PIO.DatasetReference))
    check(len(datasets) == 1, f"one dataset reference, found {datasets}")
    if datasets:
        d = datasets[0]
        has(d, PIO.storedIn, data)
        has(d, PIO.stage, PIO.Training)
        has(d, RDFS.label, Literal("training set"))
        has(task(2), PROV.used, d)

    # nothing of the refused calls
    for bad in ("bad", "dup", "nokey", "badint", "badent", "nul", "kind", "second", "nan", "x"):
        check(not list(g.subjects(RDFS.label, Literal(bad))), f"refused call '{bad}' left a record")
    check(not list(g.subjects(PIO.metricName, Literal("nan"))), "NaN metric recorded")

    vocab = sys.argv[3:]
    if vocab:
        check_vocabulary(g, vocab)

    if failures:
        for f in failures:
            print("FAIL:", f, file=sys.stderr)
        sys.exit(1)
    print(f"ok: {len(g)} triples")


if __name__ == "__main__":
    main()
