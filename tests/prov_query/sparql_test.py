"""prov-query sparql is SPARQL 1.1 and gives rdflib's rows on every input form (issue 32).

A three-job pipeline recorded by a real program through the C API (raw.h5 -> mid.h5 -> out.h5,
two threads each) is queried as a raw directory, as prov-merge's merged file and as its store;
every query must give exactly the rows rdflib computes on the merged file. The queries are the
issue's reproductions (a property path, FILTER NOT EXISTS, two SUMs in one GROUP BY, which
Rasqal refused or answered wrongly) and conformance-style cases: paths (sequence, inverse,
alternative, one-or-more, zero-or-more), negation (NOT EXISTS, MINUS), aggregates, OPTIONAL,
subqueries, BIND, VALUES, ASK and CONSTRUCT. Then a query the engine refuses: exit 1 and the
engine's message with the line and column in the user's own text.

  sparql_test.py --prov-query PQ --prov-merge PM --record RECORD_EVENTS --work DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from decimal import Decimal, InvalidOperation

import rdflib

ap = argparse.ArgumentParser()
ap.add_argument("--prov-query", required=True)
ap.add_argument("--prov-merge", required=True)
ap.add_argument("--record", required=True)
ap.add_argument("--work", required=True)
args = ap.parse_args()
shutil.rmtree(args.work, ignore_errors=True)
os.makedirs(args.work)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(cmd, env=None):
    full = {k: v for k, v in os.environ.items() if not k.startswith("PROVIO_")}
    full.update(env or {})
    return subprocess.run([str(c) for c in cmd], env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, errors="replace", timeout=120)


d = args.work
raw = os.path.join(d, "raw")
files = [os.path.join(d, n) for n in ("raw.h5", "mid.h5", "out.h5")]
steps = [["--write", files[0]], ["--read", files[0], "--write", files[1]], ["--read", files[1], "--write", files[2]]]
for i, step in enumerate(steps):
    p = run([args.record, "--threads", 2, "--events", 3, *step], env={"PROVIO_DIR": os.path.join(raw, f"job{i}")})
    assert p.returncode == 0, p.stderr
merged, store = os.path.join(d, "merged.ttl"), os.path.join(d, "store")
p = run([args.prov_merge, "-q", raw, "-o", merged, "--store", store])
assert p.returncode == 0, p.stderr
graph = rdflib.Graph()
graph.parse(merged, format="turtle")
INPUTS = {"raw directory": raw, "merged file": merged, "store": store}

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


def oracle(text):
    r = graph.query(PREFIXES + text)
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

for name, (text, ordered) in QUERIES.items():
    want = oracle(text)
    check(want, f"{name}: rdflib finds no rows on the test graph (the case tests nothing)")
    for form, source in INPUTS.items():
        got = answer(text, source)
        same = got == want if ordered or isinstance(got, str) else sorted(map(repr, got)) == sorted(map(repr, want))
        check(same, f"{name} on the {form}: {str(got)[:600]}\n  rdflib: {str(want)[:600]}")

# Statements only the merged graph has: raw files say `A prov:generated E`; every input form
# answers with the merged graph, which says `E prov:wasGeneratedBy A` instead (docs/format.md).
for form, source in INPUTS.items():
    check(answer("SELECT ?a WHERE { ?a prov:generated ?e }", source) == [],
          f"prov:generated found on the {form}: SPARQL must see the merged graph")

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

if failures:
    print(f"{len(failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print("sparql: all checks passed")
