"""prov-query on hand-written graphs for what real programs rarely produce: lineage cycles
(in-place updates across runs), rename chains (prov:wasDerivedFrom), deep chains (depth limits),
and workflow records (docs/workflow-api.md shape: configs, metrics, best runs, checkpoints
loaded under a different configuration). Answers are checked against rdflib SPARQL 1.1."""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402
from oracle import check, q  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--prov-query", required=True)
ap.add_argument("--work", required=True)
args = ap.parse_args()
shutil.rmtree(args.work, ignore_errors=True)
os.makedirs(args.work)
pq = oracle.Tool(args.prov_query)

HEAD = """@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix provio: <http://www.w3.org/ns/provio#> .
"""


def program(name, reads, writes, derived=()):
    """Turtle for one program execution that reads and writes files (IRIs file:///d/<f>)."""
    p = f"urn:provio:run:h:{name}:1"
    t = f"<{p}> a prov:Agent, provio:Program ; provio:executable \"/bin/{name}\" ; provio:pid \"1\"^^xsd:unsignedLong .\n"
    t += f"<{p}/thread/0> a prov:Agent, provio:Thread ; prov:actedOnBehalfOf <{p}> .\n"
    for i, f in enumerate(reads):
        a = f"<{p}/thread/0/read/{i}>"
        t += f"<file:///d/{f}> a prov:Entity, provio:File ; provio:path \"/d/{f}\" .\n"
        t += (f"{a} a prov:Activity, provio:Read ; provio:api \"read\" ; prov:wasAssociatedWith <{p}/thread/0> ; "
              f"prov:used <file:///d/{f}> ; provio:count \"1\"^^xsd:unsignedLong ; provio:bytes \"10\"^^xsd:unsignedLong ; "
              f"provio:elapsed \"0.000000001\"^^xsd:double .\n<file:///d/{f}> provio:wasReadBy {a} .\n")
    for i, f in enumerate(writes):
        a = f"<{p}/thread/0/write/{i}>"
        t += f"<file:///d/{f}> a prov:Entity, provio:File ; provio:path \"/d/{f}\" .\n"
        t += (f"{a} a prov:Activity, provio:Write ; provio:api \"write\" ; prov:wasAssociatedWith <{p}/thread/0> ; "
              f"provio:count \"1\"^^xsd:unsignedLong ; provio:bytes \"20\"^^xsd:unsignedLong ; "
              f"provio:elapsed \"0.000000002\"^^xsd:double .\n<file:///d/{f}> prov:wasGeneratedBy {a} ; provio:wasWrittenBy {a} .\n")
    for new, old in derived:
        t += f"<file:///d/{new}> a prov:Entity, provio:File ; prov:wasDerivedFrom <file:///d/{old}> .\n"
    return t


def graph(name, body):
    path = os.path.join(args.work, name)
    with open(path, "w") as f:
        f.write(HEAD + body)
    g = oracle.load([path])
    oracle.add_lineage_steps(g)
    return path, g


def sets(rows):
    return ({r["iri"] for r in rows if r["kind"] == "entity"}, {r["iri"] for r in rows if r["kind"] == "program"})


# A cycle: p1 reads x writes y; p2 reads y writes x; p3 reads x writes z; z renamed to w.
path, g = graph("cycle.ttl", program("p1", ["x"], ["y"]) + program("p2", ["y"], ["x"]) + program("p3", ["x"], ["z"])
                + program("p4", [], ["w"], derived=[("w", "z")]))
for f in ("x", "y", "z", "w"):
    for up in (True, False):
        for d1 in (False, True):
            got = sets(pq.json("lineage", f"file:///d/{f}", "--up" if up else "--down", "--depth", "1" if d1 else "all", path))
            want = oracle.lineage(g, f"file:///d/{f}", up=up, depth_one=d1)
            check(got == want, f"cycle lineage {f} up={up} depth1={d1}: {got} vs {want}")
rows = pq.json("lineage", "file:///d/w", path)
check({"file:///d/z", "file:///d/x", "file:///d/y"} <= {r["iri"] for r in rows}, f"w derives from z, x, y: {rows}")

# A chain of 12 programs: depth N reaches exactly N programs.
body = "".join(program(f"s{i}", [f"f{i}"], [f"f{i + 1}"]) for i in range(12))
path, g = graph("chain.ttl", body)
for depth in (0, 1, 3, 10):
    rows = pq.json("lineage", "file:///d/f12", "--depth", str(depth), path)
    progs = [r for r in rows if r["kind"] == "program"]
    check(len(progs) == depth and all(int(r["level"]) <= depth for r in rows), f"chain depth {depth}: {rows}")
check(sets(pq.json("lineage", "file:///d/f12", path)) == oracle.lineage(g, "file:///d/f12"), "chain all")
r = pq.run("lineage", "file:///d/f12", "--depth", "-2", path, expect=1)
check("--depth" in r.stderr, "negative depth refused")

# Workflow records.
X = "urn:provio:run:h:train:1"
wf = f"<{X}> a prov:Agent, provio:Program ; provio:executable \"/bin/train\" .\n<{X}/thread/0> a prov:Agent, provio:Thread ; prov:actedOnBehalfOf <{X}> .\n"
for n, (lr, acc) in enumerate([(0.1, 0.81), (0.01, 0.93), (0.001, 0.88)]):
    T, C, M = f"<{X}/task/{n}>", f"<{X}/config/{n}>", f"<{X}/thread/0/model/{n}>"
    wf += f"{T} a prov:Activity, provio:Task ; rdfs:label \"train{n}\" ; prov:wasAssociatedWith <{X}/thread/0> ; prov:used {C} .\n"
    wf += (f"{C} a prov:Entity, provio:Configuration, provio:HyperparameterSetting ; rdfs:label \"hp{n}\" ; prov:wasAttributedTo <{X}> ;"
           f" provio:parameter <{X}/config/{n}/lr> .\n<{X}/config/{n}/lr> a provio:Parameter ; provio:key \"lr\" ; provio:value \"{lr}\"^^xsd:double .\n")
    wf += (f"<{X}/thread/0/metric/{n}> a prov:Entity, provio:Metric ; provio:metricName \"accuracy\" ; provio:value \"{acc}\"^^xsd:double ;"
           f" provio:step \"5\"^^xsd:long ; prov:wasGeneratedBy {T} .\n")
    wf += f"{M} a prov:Entity, provio:ModelReference ; provio:storedIn <file:///d/ckpt{n}.h5> ; provio:trainedWith {C} ; prov:wasGeneratedBy {T} .\n"
# A fine-tuning task loads ckpt1 under config 0 (a different lr): the Megatron-LM inconsistency.
wf += f"<{X}/task/9> a prov:Activity, provio:Task ; prov:wasAssociatedWith <{X}/thread/0> ; prov:used <file:///d/ckpt1.h5>, <{X}/config/0> .\n"
# ckpt2 reloaded under its own configuration: consistent, not reported.
wf += f"<{X}/task/8> a prov:Activity, provio:Task ; prov:wasAssociatedWith <{X}/thread/0> ; prov:used <file:///d/ckpt2.h5>, <{X}/config/2> .\n"
path, g = graph("workflow.ttl", wf)
rows = pq.json("best", "--metric", "accuracy", "-k", "2", path)
want = q(g, """SELECT ?v ?lr WHERE { ?m a provio:Metric ; provio:metricName "accuracy" ; provio:value ?v ; prov:wasGeneratedBy ?t .
               ?t prov:used ?c . ?c a provio:Configuration ; provio:parameter ?p . ?p provio:key "lr" ; provio:value ?lr }
               ORDER BY DESC(?v) LIMIT 2""")
check([float(r["value"]) for r in rows] == [float(w[0]) for w in want], f"best order: {rows} vs {want}")
check(rows and rows[0]["hyperparameters"] == f"lr={want[0][1]}" and rows[0]["checkpoint"] == "/d/ckpt1.h5",
      f"best run's hyperparameters and checkpoint: {rows}")
rows = pq.json("best", "--metric", "accuracy", "--min", "-k", "1", path)
check(len(rows) == 1 and float(rows[0]["value"]) == 0.81, f"best --min: {rows}")
rows = pq.json("metrics", path)
want = {(str(r[0]), float(r[1]), str(r[2])) for r in q(g, """SELECT ?m ?v ?task WHERE {
    ?m a provio:Metric ; provio:metricName "accuracy" ; provio:value ?v ; prov:wasGeneratedBy/rdfs:label ?task }""")}
check({(r["iri"], float(r["value"]), r["task"]) for r in rows} == want and len(want) == 3, f"metrics: {rows} vs {want}")
rows = pq.json("configs", path)
want = {(str(r[0]), str(r[1]), str(r[2]), float(r[3])) for r in q(g, """SELECT ?c ?name ?k ?v WHERE {
    ?c a provio:Configuration ; rdfs:label ?name ; provio:parameter ?p . ?p provio:key ?k ; provio:value ?v }""")}
check({(r["iri"], r["name"], r["key"], float(r["value"])) for r in rows} == want and len(want) == 3,
      f"configs: {rows} vs {want}")
rows = pq.json("checkpoints", path)
check(len(rows) == 1 and rows[0]["checkpoint"] == "/d/ckpt1.h5" and rows[0]["differences"] == "lr:0.01->0.1",
      f"checkpoints loaded under another configuration: {rows}")

# Nested POSIX calls (made by HDF5 inside an H5Dwrite, provio:nested true): their bytes are the
# H5Dwrite's, so I/O totals leave them out unless --nested asks for them.
N = "urn:provio:run:h:sim:1"
body = (f"<{N}> a prov:Agent, provio:Program ; provio:executable \"/bin/sim\" .\n"
        f"<{N}/thread/0> a prov:Agent, provio:Thread ; prov:actedOnBehalfOf <{N}> .\n"
        "<file:///d/out.h5> a prov:Entity, provio:File ; provio:path \"/d/out.h5\" .\n")
for api, nested in (("H5Dwrite", False), ("pwrite", True)):
    a = f"<{N}/thread/0/{api}>"
    body += (f"{a} a prov:Activity, provio:Write ; provio:api \"{api}\" ; prov:wasAssociatedWith <{N}/thread/0> ; "
             f"provio:count \"2\"^^xsd:unsignedLong ; provio:bytes \"4096\"^^xsd:unsignedLong ; "
             f"provio:elapsed \"0.000001000\"^^xsd:double .\n<file:///d/out.h5> prov:wasGeneratedBy {a} ; provio:wasWrittenBy {a} .\n")
    if nested:
        body += f"{a} provio:nested \"true\"^^xsd:boolean .\n"
path, g = graph("nested.ttl", body)
rows = pq.json("stats", "--by", "file", path)
check(len(rows) == 1 and int(rows[0]["bytes"]) == 4096 and int(rows[0]["calls"]) == 2, f"stats without nested: {rows}")
rows = pq.json("stats", "--by", "file", "--nested", path)
check(len(rows) == 1 and int(rows[0]["bytes"]) == 8192, f"stats --nested: {rows}")
rows = pq.json("stats", "--by", "api", path)
check({r["api"] for r in rows} == {"H5Dwrite"}, f"stats by api leaves pwrite out: {rows}")

oracle.finish("prov_query_graphs")
