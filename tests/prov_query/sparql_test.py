"""prov-query sparql is SPARQL 1.1 and gives rdflib's rows on every input form (issue 32).

A three-job pipeline recorded by a real program through the C API (raw.h5 -> mid.h5 -> out.h5,
two threads each) is queried as a raw directory, as prov-merge's merged file and as its store;
every query must give exactly the rows rdflib computes on the merged file. The queries are the
issue's reproductions (a property path, FILTER NOT EXISTS, two SUMs in one GROUP BY, which
Rasqal refused or answered wrongly) and conformance-style cases: paths (sequence, inverse,
alternative, one-or-more, zero-or-more), negation (NOT EXISTS, MINUS), aggregates, OPTIONAL,
subqueries, BIND, VALUES, ASK and CONSTRUCT. Then a query the engine refuses: exit 1 and the
engine's message with the line and column in the user's own text.

The shipped questions (share/provio/queries) run on the example they are about: the pipeline
above, or Python workflow programs traced under the preload library and the VOL connector —
Megatron's train/resume (tests/ml/megatron.py) for checkpoint-config.rq, examples/ml_sweep for
best-hyperparameters.rq — and those two must also agree with the built-in question they mirror
(`prov-query checkpoints`, `prov-query best --metric accuracy -k 3`) on every input form.

  sparql_test.py --prov-query PQ --prov-merge PM --record RECORD_EVENTS --python-path DIR
                 --preload LIB --plugins DIR --h5io LIB --h5ckpt LIB --work DIR
"""
import json
import os
import sys
from decimal import Decimal, InvalidOperation

import rdflib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import harness  # noqa: E402
import zstd_raw  # noqa: E402
from harness import run  # noqa: E402

args = harness.options("--prov-query", "--prov-merge", "--record", "--python-path", "--preload", "--plugins",
                       "--h5io", "--h5ckpt", "--work")
harness.fresh_dir(args.work)
check = harness.Checks()

d = args.work
raw = os.path.join(d, "raw")
files = [os.path.join(d, n) for n in ("raw.h5", "mid.h5", "out.h5")]
steps = [["--write", files[0]], ["--read", files[0], "--write", files[1]], ["--read", files[1], "--write", files[2]]]
for i, step in enumerate(steps):
    p = run([args.record, "--threads", 2, "--events", 3, *step], env={"PROVIO_DIR": os.path.join(raw, f"job{i}")})
    assert p.returncode == 0, p.stderr


def forms(raw_dir, name):
    """The input forms of one recorded example: its raw directory, merged file and store."""
    merged_file, store_dir = os.path.join(d, name + ".ttl"), os.path.join(d, name + "-store")
    p = run([args.prov_merge, "-q", raw_dir, "-o", merged_file, "--store", store_dir])
    assert p.returncode == 0, p.stderr
    g = rdflib.Graph()
    g.parse(merged_file, format="turtle")
    return {"raw directory": raw_dir, "merged file": merged_file, "store": store_dir}, g


INPUTS, graph = forms(raw, "merged")
merged = INPUTS["merged file"]

# The machine-learning examples, traced as a user runs them.
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
traced = {"PYTHONPATH": args.python_path, "LD_PRELOAD": args.preload, "HDF5_PLUGIN_PATH": args.plugins,
          "HDF5_VOL_CONNECTOR": "provio under_vol=0;under_info={}"}


def python(provio_dir, *argv):
    p = run([sys.executable, *argv], env=dict(traced, PROVIO_DIR=provio_dir))
    assert p.returncode == 0, p.stderr[-3000:]


megatron, ckpt = os.path.join(d, "megatron"), os.path.join(d, "model.h5")
script = os.path.join(SOURCE, "tests", "ml", "megatron.py")
python(megatron, script, "train", "--config", "A", "--save", ckpt, "--h5io", args.h5io)
for config in ("B", "A"):
    python(megatron, script, "resume", "--config", config, "--load", ckpt, "--save",
           os.path.join(d, f"model-{config}.h5"), "--h5io", args.h5io)
sweep = os.path.join(d, "sweep")
python(sweep, os.path.join(SOURCE, "examples", "ml_sweep", "train.py"), "--out", os.path.join(d, "sweep-out"),
       "--epochs", "3", "--h5ckpt", args.h5ckpt)
EXAMPLES = {"pipeline": (INPUTS, graph), "megatron": forms(megatron, "megatron"), "sweep": forms(sweep, "sweep")}
EXAMPLE_OF = {"checkpoint-config.rq": "megatron", "best-hyperparameters.rq": "sweep"}

PREFIXES = "".join(f"PREFIX {k}: <{v}>\n" for k, v in [
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"), ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#"), ("prov", "http://www.w3.org/ns/prov#"),
    ("provio", "http://www.w3.org/ns/provio#")])
OUT = rdflib.URIRef("file://" + os.path.realpath(files[2]))

# name -> (query, ordered): ordered results compare as lists, the others as multisets. A
# GROUP_CONCAT's order is the engine's: its parts compare as a set (SEPARATOR "|").
QUERIES = {
    # The reproductions.
    "property path (agent chain)": ("""SELECT DISTINCT ?e ?who WHERE {
        ?e prov:wasGeneratedBy ?a . ?a prov:wasAssociatedWith/prov:actedOnBehalfOf+ ?who }""", False),
    "FILTER NOT EXISTS": ("""SELECT ?e WHERE { ?e a prov:Entity
        FILTER NOT EXISTS { ?a prov:used ?e } }""", False),
    "two SUMs in one GROUP BY": ("""SELECT ?api (SUM(?b) AS ?bytes) (SUM(?c) AS ?calls) WHERE {
        ?a provio:api ?api ; provio:bytes ?b ; provio:count ?c } GROUP BY ?api""", False),
    # Paths.
    "lineage to any depth": (f"""SELECT DISTINCT ?x WHERE {{
        <{OUT}> (prov:wasGeneratedBy/prov:wasAssociatedWith/prov:actedOnBehalfOf/^prov:actedOnBehalfOf
                 /^prov:wasAssociatedWith/prov:used)+ ?x }}""", False),
    # COUNT(DISTINCT): rdflib yields the start node of a `*` path twice where SPARQL 1.1 (and
    # Oxigraph) yields each node reached once.
    "zero-or-more and inverse": ("""SELECT ?t (COUNT(DISTINCT ?x) AS ?n) WHERE {
        ?t a provio:Thread . ?t (prov:actedOnBehalfOf|^prov:actedOnBehalfOf)* ?x } GROUP BY ?t""", False),
    "alternative path": ("""SELECT ?e ?a WHERE { ?e prov:wasGeneratedBy|provio:wasReadBy ?a }""", False),
    # Negation.
    "MINUS": ("""SELECT ?p WHERE { ?p a provio:Program MINUS { ?t prov:actedOnBehalfOf ?p ;
        ^prov:wasAssociatedWith/a provio:Read } }""", False),
    # Aggregates.
    "every aggregate": ("""SELECT ?api (COUNT(*) AS ?n) (COUNT(DISTINCT ?e) AS ?ents) (MIN(?b) AS ?lo)
        (MAX(?b) AS ?hi) (AVG(?c) AS ?mean) (SAMPLE(?api) AS ?s) WHERE {
        ?a provio:api ?api ; provio:bytes ?b ; provio:count ?c ; prov:used|^prov:wasGeneratedBy ?e }
        GROUP BY ?api HAVING (COUNT(*) > 0) ORDER BY ?api""", True),
    "GROUP_CONCAT": ("""SELECT ?p (GROUP_CONCAT(DISTINCT ?api; separator="|") AS ?apis) WHERE {
        ?a provio:api ?api ; prov:wasAssociatedWith/prov:actedOnBehalfOf ?p } GROUP BY ?p""", False),
    # OPTIONAL, subquery, BIND, VALUES, ORDER BY / LIMIT.
    "OPTIONAL": ("""SELECT ?f ?g WHERE { ?f a provio:File OPTIONAL { ?f prov:wasGeneratedBy ?g } }""", False),
    "subquery": ("""SELECT ?api ?total WHERE { { SELECT ?api (SUM(?b) AS ?total) WHERE {
        ?a provio:api ?api ; provio:bytes ?b } GROUP BY ?api } FILTER(?total > 0) }""", False),
    "BIND": ("""SELECT ?a ?kb WHERE { ?a provio:bytes ?b BIND(?b / 1024 AS ?kb) }""", False),
    "VALUES": ("""SELECT ?a ?api WHERE { VALUES ?api { "H5Dwrite" "H5Dread" } ?a provio:api ?api }""", False),
    "ORDER BY and LIMIT": ("""SELECT ?a ?b WHERE { ?a provio:bytes ?b } ORDER BY DESC(?b) ?a LIMIT 3""", True),
    "ASK": ("""ASK { ?p a provio:Program }""", False),
    "CONSTRUCT": ("""CONSTRUCT { ?e <urn:test:writer> ?p } WHERE {
        ?e prov:wasGeneratedBy/prov:wasAssociatedWith/prov:actedOnBehalfOf ?p }""", False),
    # What prov-query sends the engine: only the triples whose predicates the query names, or every
    # triple where any may matter (tools/query/oxigraph_query.js, predicates()). Each case below
    # gives other rows if that choice is wrong.
    "variable predicate": ("""SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p""", False),
    "zero-length path from a constant": (f"""SELECT ?x WHERE {{ <{OUT}> prov:actedOnBehalfOf* ?x }}""", False),
    "zero-length path on VALUES": (f"""SELECT ?x WHERE {{ VALUES ?x {{ <{OUT}> }} ?x provio:none? ?x }}""", False),
    "zero-or-more after a step": ("""SELECT ?f ?x WHERE {
        ?f a provio:File ; prov:wasGeneratedBy/prov:wasAssociatedWith/prov:actedOnBehalfOf* ?x }""", False),
    "negated property set": ("""SELECT (COUNT(*) AS ?n) WHERE { ?s !(rdf:type|prov:used) ?o }""", False),
    "EXISTS in a FILTER": ("""SELECT ?f WHERE { ?f a provio:File FILTER EXISTS { ?f prov:wasGeneratedBy ?a } }""",
                           False),
}


def number(v):
    try:
        return Decimal(v).normalize()
    except (InvalidOperation, ValueError):
        return v


def norm(value):
    """One cell: the text of a term; numbers by value (engines spell 2.5, 2.50 or 2.5E0 alike)."""
    if value is None:
        return None
    text = str(value)
    return "|".join(sorted(text.split("|"))) if "|" in text else number(text)


def oracle(text, g=graph):
    r = g.query(PREFIXES + text)
    if r.type == "ASK":
        return [(norm("true" if r.askAnswer else "false"),)]
    if r.type == "CONSTRUCT":
        return [tuple(norm(t) for t in triple) for triple in r.graph]
    return [tuple(norm(row[v]) for v in r.vars) for row in r]


def answer(text, source):
    p = run([args.prov_query, "sparql", "-q", "-f", "json", "-e", text, source])
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr.strip()}"
    doc = json.loads(p.stdout)
    if "boolean" in doc:
        return [(norm("true" if doc["boolean"] else "false"),)]
    cols = doc["head"]["vars"]
    return [tuple(norm(b[c]["value"]) if c in b else None for c in cols) for b in doc["results"]["bindings"]]


# The shipped questions (share/provio/queries); each orders its rows.
SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "share", "provio", "queries")
for rq in sorted(os.listdir(SHIPPED)):
    with open(os.path.join(SHIPPED, rq)) as f:
        QUERIES[rq] = (f.read(), True)



def builtin(source, *question):
    """The rows of a built-in prov-query question as dicts of column -> text."""
    p = run([args.prov_query, *question, "-q", "-f", "json", source])
    assert p.returncode == 0, p.stderr
    return [{c: b[c]["value"] for c in b} for b in json.loads(p.stdout)["results"]["bindings"]]


def pairs(text, sep, arrow):
    """"k=v k=v" (or "k:a->b …") as {k: v}, values by number."""
    out = {}
    for part in text.split():
        key, value = part.split(sep, 1)
        out[key] = tuple(None if x == "(unset)" else norm(x) for x in value.split(arrow)) if arrow else norm(value)
    return out


def checkpoints_agree(rows, source):
    """checkpoint-config.rq's rows, one per differing key, grouped per load as `checkpoints` shows them."""
    loads = {}
    for checkpoint, step, version, writer, loader, key, written, loaded, written_with, loaded_with in rows:
        load = loads.setdefault((version, loader), [checkpoint, step, version, {}, written_with, loaded_with])
        load[3][key] = (written, loaded)
    mine = sorted((str(c)[len("file://"):], s, str(v), k, str(w), str(l)) for c, s, v, k, w, l in loads.values())
    theirs = sorted((r["checkpoint"], norm(r["step"]), r["version"], pairs(r["differences"], ":", "->"),
                     r["written_with"], r["loaded_with"]) for r in builtin(source, "checkpoints"))
    return mine == theirs and mine, f"{mine}\n  prov-query checkpoints: {theirs}"


def best_agrees(rows, source):
    """best-hyperparameters.rq's rows, one per key, grouped per run as `best` ranks them."""
    runs = []
    for run, name, accuracy, step, key, value in rows:
        if not runs or runs[-1][0] != name:
            runs.append((name, accuracy, step, {}))
        runs[-1][3][key] = value
    theirs = [(r["run"], norm(r["value"]), norm(r["step"]), pairs(r["hyperparameters"], "=", None))
              for r in builtin(source, "best", "--metric", "accuracy", "-k", "3")]
    return runs == theirs and len(runs) == 3, f"{runs}\n  prov-query best: {theirs}"


AGREES = {"checkpoint-config.rq": checkpoints_agree, "best-hyperparameters.rq": best_agrees}

for name, (text, ordered) in QUERIES.items():
    inputs, g = EXAMPLES[EXAMPLE_OF.get(name, "pipeline")]
    want = oracle(text, g)
    check(want, f"{name}: rdflib finds no rows on the test graph (the case tests nothing)")
    for form, source in inputs.items():
        got = answer(text, source)
        same = got == want if ordered or isinstance(got, str) else sorted(map(repr, got)) == sorted(map(repr, want))
        check(same, f"{name} on the {form}: {str(got)[:600]}\n  rdflib: {str(want)[:600]}")
        if name in AGREES and not isinstance(got, str):
            agree, why = AGREES[name](got, source)
            check(agree, f"{name} on the {form} disagrees with the built-in question: {why[:1200]}")

# Statements only the merged graph has: raw files say `A prov:generated E`; every input form
# answers with the merged graph, which says `E prov:wasGeneratedBy A` instead (docs/format.md).
for form, source in INPUTS.items():
    check(answer("SELECT ?a WHERE { ?a prov:generated ?e }", source) == [],
          f"prov:generated found on the {form}: SPARQL must see the merged graph")

# Reading only what the query can match (docs/sparql.md) is exact only for one merged graph: the
# graph prov-query answers from is the completed and folded one, and a raw file's compact summary
# lines name their activity's API only in its IRI. Each input below reads whole and folds, and
# would miss every row (or count twice) if it were read filtered like a merged file.
one_raw = os.path.join(d, "one-raw.ttl")
with open(one_raw, "w") as f:
    f.write(zstd_raw.read_text(zstd_raw.raw_files(os.path.join(raw, "job1"))[0]))
one_merged = os.path.join(d, "one-merged.ttl")
p = run([args.prov_merge, "-q", one_raw, "-o", one_merged])
assert p.returncode == 0, p.stderr
one_graph = rdflib.Graph()
one_graph.parse(one_merged, format="turtle")
one_raw_nt = os.path.join(d, "one-raw.nt")  # the raw file without its header
rdflib.Graph().parse(one_raw, format="turtle").serialize(one_raw_nt, format="nt")
SUMS = QUERIES["two SUMs in one GROUP BY"][0]
for what, sources, g in (("one raw file", [one_raw], one_graph), ("one raw file as N-Triples", [one_raw_nt], one_graph),
                         ("the merged file and its raw directory", [merged, raw], graph)):
    want = oracle(SUMS, g)
    p = run([args.prov_query, "sparql", "-q", "-f", "json", "-e", SUMS, *sources])
    got = p.stdout and [tuple(norm(b[c]["value"]) for c in ("api", "bytes", "calls"))
                        for b in json.loads(p.stdout)["results"]["bindings"]]
    check(want and p.returncode == 0 and sorted(got) == sorted(want),
          f"two SUMs on {what}: exit {p.returncode}: {str(got)[:400]} {p.stderr[-300:]}\n  rdflib: {want}")

# DESCRIBE names no predicate but answers with the resource's triples, whatever their predicates.
got = answer(f"DESCRIBE <{OUT}>", merged)
described = {(p_, o) for s_, p_, o in got if s_ == norm(OUT)} if not isinstance(got, str) else got
want = {(norm(p_), norm(o)) for p_, o in graph.predicate_objects(OUT)}
check(want and described == want, f"DESCRIBE: {str(described)[:600]}\n  rdflib: {str(want)[:600]}")

# The triples the engine is sent, seen by a node that copies its standard input to a file: a
# query naming its predicates gets only the triples with them, one with a variable predicate all.
fed = os.path.join(d, "fed.nt")
tee_node = os.path.join(d, "tee-node")
with open(tee_node, "w") as f:
    f.write(f"#!/bin/sh\ntee {fed} | node \"$@\"\n")  # the shell waits for tee too
os.chmod(tee_node, 0o755)


def fed_predicates(text):
    p = run([args.prov_query, "sparql", "-q", "-e", text, merged], env={"PROVIO_NODE": tee_node})
    assert p.returncode == 0, p.stderr
    with open(fed, "rb") as f:
        header = f.readline()  # the query's length; the query; then the graph (oxigraph_query.js)
        triples = f.read()[int(header):].decode().splitlines()
    return len(triples), {line.split(" ")[1] for line in triples}


sums = {rdflib.URIRef("http://www.w3.org/ns/provio#" + n) for n in ("api", "bytes", "count")}
n, preds = fed_predicates(QUERIES["two SUMs in one GROUP BY"][0])
check(n == sum(1 for _, p_, _ in graph if p_ in sums) and preds == {f"<{p_}>" for p_ in sums},
      f"two SUMs: the engine was sent {n} triples with {sorted(preds)}")
n, preds = fed_predicates("SELECT * WHERE { ?s ?p ?o }")
check(n == len(graph), f"variable predicate: the engine was sent {n} of {len(graph)} triples")

# A query the engine refuses: exit 1, the engine's message at the user's own line and column.
p = run([args.prov_query, "sparql", "-e", "SELECT ?x WHERE {\n  ?x ?y }", merged])
check(p.returncode == 1, f"malformed query: exit {p.returncode}, want 1")
check(p.stderr.startswith("prov-query: -e: malformed SPARQL: 2:") and p.stderr.count("\n") == 1,
      f"malformed query message: {p.stderr!r}")
rq = os.path.join(d, "bad.rq")
with open(rq, "w") as f:
    f.write("# a comment\nSELECT * WHERE { ?s nope:p ?o }\n")
p = run([args.prov_query, "sparql", rq, merged])
check(p.returncode == 1 and p.stderr.startswith(f"prov-query: {rq}: malformed SPARQL: 2:27: ")
      and "Prefix not found" in p.stderr and p.stderr.count("\n") == 1,
      f"malformed query file: exit {p.returncode}: {p.stderr!r}")
# No engine: a clear message naming what is missing, exit 1.
p = run([args.prov_query, "sparql", "-e", "ASK {}", merged], env={"PROVIO_OXIGRAPH_DIR": os.path.join(d, "none")})
check(p.returncode == 1 and "Oxigraph" in p.stderr and "PROVIO_OXIGRAPH_DIR" in p.stderr,
      f"missing engine: exit {p.returncode}: {p.stderr!r}")

check.finish("sparql: all checks passed")
