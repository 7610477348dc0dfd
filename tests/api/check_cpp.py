#!/usr/bin/python3
"""Checks what workflow_calls_cpp.cc recorded through provio.hpp (see docs/workflow-api.md).
usage: check_cpp.py PROVDIR WORKDIR"""
import os, sys
from urllib.parse import quote

import rdflib
from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, XSD

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402

PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
PIO = rdflib.Namespace("http://www.w3.org/ns/provio#")

prov_dir, work = sys.argv[1], os.path.realpath(sys.argv[2])
g = rdflib.Graph()
for f in zstd_raw.raw_files(prov_dir):
    zstd_raw.parse(f, g)
(X,) = list(g.subjects(RDF.type, PIO.Program))
x = str(X)
fails = []


def has(s, p, o):
    if (s, p, o) not in g:
        fails.append(f"missing {s} {p} {o!r}")


def params(c):
    return {str(g.value(p, PIO.key)): g.value(p, PIO.value) for p in g.objects(c, PIO.parameter)}


W, T, S = URIRef(x + "/workflow/1"), URIRef(x + "/task/1"), URIRef(x + "/task/2")
f = lambda n: URIRef("file://" + quote(work + "/" + n))
has(W, PIO.workflow, Literal("cpp workflow"))
has(X, PIO.campaign, Literal("cpp campaign"))
has(W, PROV.endedAtTime, g.value(W, PROV.endedAtTime))
if len(list(g.subjects(RDF.type, PIO.Workflow))) != 1:
    fails.append("the second workflow was refused")
has(X, PIO.programType, URIRef("urn:provio:type:simulation"))
has(T, RDFS.label, Literal("cpp task"))
has(S, PIO.parentTask, T)
for t in (T, S):
    if len(list(g.objects(t, PROV.endedAtTime))) != 1:
        fails.append(f"{t} ended once")
hp, fc = URIRef(x + "/config/1"), URIRef(x + "/config/2")
expect = {"lr": Literal("0.5", datatype=XSD.double), "n": Literal("3", datatype=XSD.long),
          "f": Literal("0.25", datatype=XSD.double),
          "u": Literal("18446744073709551615", datatype=XSD.unsignedLong), "flag": Literal(True),
          "label": Literal("x\"y\n"), "huge": Literal("123456789012345678901234567890", datatype=XSD.integer),
          "data": f("in.dat")}
if params(hp) != expect:
    fails.append(f"hyperparameters {params(hp)}")
has(hp, RDF.type, PIO.HyperparameterSetting)
expect = {"grid": Literal("64", datatype=XSD.long), "dt": Literal("0.001", datatype=XSD.double),
          "implicit": Literal(True), "boundary": Literal("dirichlet \"fixed\""), "weird": Literal("nan")}
if params(fc) != expect:
    fails.append(f"config file {params(fc)}")
has(fc, RDFS.label, Literal(work + "/sim.cfg"))
has(T, PROV.used, fc)
has(T, PROV.used, f("sim.cfg"))
if len(list(g.subjects(RDF.type, PIO.Configuration))) != 2:
    fails.append("the NaN configuration was refused")
has(URIRef(x + "/task/1/parameter/p"), PIO.value, Literal("-1", datatype=XSD.long))
has(URIRef(x + "/task/1/result/r"), PIO.value, Literal("2.5", datatype=XSD.double))
if list(g.objects(T, PIO.result)) != [URIRef(x + "/task/1/result/r")]:
    fails.append("the duplicate results were refused")
(m,) = list(g.subjects(RDF.type, PIO.Metric))
has(m, PIO.metricName, Literal("loss"))
has(m, PIO.stage, PIO.Training)
(model,) = list(g.subjects(RDF.type, PIO.ModelReference))
has(model, PIO.storedIn, URIRef(str(f("out.h5")) + "#/model"))
has(model, PIO.trainedWith, hp)
has(model, RDFS.label, Literal("net"))
has(URIRef(x + "/task/1/property/owner"), PIO.value, Literal("me"))
has(f("out.h5"), PROV.wasGeneratedBy, T)
if fails:
    print("\n".join("FAIL: " + s for s in fails), file=sys.stderr)
    sys.exit(1)
print(f"ok: {len(g)} triples")
