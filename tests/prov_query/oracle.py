"""Independent answers for prov-query's questions, from rdflib's SPARQL 1.1 (property paths).

Loads raw per-thread files or merged Turtle, folds summary parts the way docs/format.md says
(independently of prov-query's loader), materialises the lineage step relation of
docs/prov-query.md with SPARQL CONSTRUCT, and answers transitive questions with property paths.
"""
import os
import subprocess
import json
import sys
from decimal import Decimal

import rdflib
from rdflib import Literal, Namespace, URIRef
from rdflib.namespace import RDF, XSD

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import raw_graph  # noqa: E402
import zstd_raw  # noqa: E402

PROV = Namespace("http://www.w3.org/ns/prov#")
PROVIO = Namespace("http://www.w3.org/ns/provio#")
EX = Namespace("urn:oracle:")
PREFIXES = """PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX provio: <http://www.w3.org/ns/provio#>
PREFIX ex: <urn:oracle:>
"""


def load(paths):
    g = rdflib.Graph()
    for p in paths:
        if os.path.isdir(p):
            for f in zstd_raw.raw_files(p, recursive=True):
                g += raw_graph.load(f)
        else:
            g.parse(p, format="nt" if p.endswith(".nt") else "turtle")
    fold(g)
    return g


def fold(g):
    """Sum count/bytes/elapsed of each activity's own measures (a raw file's first flush) and its
    parts', min start, max end; drop the parts."""
    acts = {}
    for a, part in list(g.subject_objects(PROVIO["partial"])):
        acts.setdefault(a, []).append(part)
    for a, parts in acts.items():
        count = bytes_ = 0
        elapsed = Decimal(0)
        starts, ends = [], []
        for part in parts + [a]:
            for p, o in list(g.predicate_objects(part)):
                if p == PROVIO["count"]:
                    count += int(o)
                elif p == PROVIO["bytes"]:
                    bytes_ += int(o)
                elif p == PROVIO["elapsed"]:
                    elapsed += Decimal(str(o))
                elif p == PROV["startedAtTime"]:
                    starts.append(str(o))
                elif p == PROV["endedAtTime"]:
                    ends.append(str(o))
                else:
                    continue
                g.remove((part, p, o))
            if part != a:
                g.remove((part, None, None))
            g.remove((a, PROVIO["partial"], part))
        g.add((a, PROVIO["count"], Literal(str(count), datatype=XSD.unsignedLong)))
        g.add((a, PROVIO["bytes"], Literal(str(bytes_), datatype=XSD.unsignedLong)))
        g.add((a, PROVIO["elapsed"], Literal(f"{elapsed:.9f}", datatype=XSD.double)))
        if starts:
            g.add((a, PROV["startedAtTime"], Literal(min(starts), datatype=XSD.dateTime)))
        if ends:
            g.add((a, PROV["endedAtTime"], Literal(max(ends), datatype=XSD.dateTime)))


def q(g, text):
    return list(g.query(PREFIXES + text))


def add_lineage_steps(g):
    """ex:genBy (E in G(P)) and ex:input (I in inputs(P)), as docs/prov-query.md defines them."""
    for row in q(g, """CONSTRUCT { ?x ex:genBy ?p } WHERE {
        ?a prov:wasAssociatedWith/prov:actedOnBehalfOf ?p . ?p a provio:Program .
        { ?x prov:wasGeneratedBy ?a }
        UNION { ?o prov:wasGeneratedBy ?a . ?o provio:inFile ?x }
        UNION { ?o prov:wasGeneratedBy ?a . ?o provio:attributeOf/provio:inFile ?x } }"""):
        g.add(row)
    for row in q(g, """CONSTRUCT { ?p ex:input ?i } WHERE {
        ?a prov:wasAssociatedWith/prov:actedOnBehalfOf ?p . ?p a provio:Program .
        { ?a prov:used ?i } UNION { ?a prov:used ?o . ?o provio:inFile ?i }
        UNION { ?a prov:used ?o . ?o provio:attributeOf/provio:inFile ?i }
        FILTER NOT EXISTS { ?i ex:genBy ?p }
        FILTER NOT EXISTS { ?i provio:inFile ?f . ?f ex:genBy ?p }
        FILTER NOT EXISTS { ?r prov:wasAssociatedWith/prov:actedOnBehalfOf ?p ; prov:used ?v .
                            ?v prov:specializationOf ?i } }"""):
        g.add(row)
    # outputs(P): G(P), a file P left versions of replaced by them.
    for row in q(g, """CONSTRUCT { ?x ex:leftBy ?p } WHERE { ?x ex:genBy ?p
        FILTER NOT EXISTS { ?v prov:specializationOf ?x ; ex:genBy ?p } }"""):
        g.add(row)


def lineage(g, iri, up=True, depth_one=False):
    """(entities, programs) of the lineage of `iri`."""
    x = URIRef(iri)
    if up:
        step, prog = "(ex:genBy/ex:input|prov:wasDerivedFrom)", "ex:genBy"
    else:
        # a file or object is also an input of the programs that read a version of its file
        step = "((^prov:specializationOf|provio:inFile/^prov:specializationOf)?/^ex:input/^ex:leftBy|^prov:wasDerivedFrom)"
        prog = "(^prov:specializationOf|provio:inFile/^prov:specializationOf)?/^ex:input"
    if depth_one:
        ents = {str(r[0]) for r in q(g, f"SELECT ?e WHERE {{ ?x {step} ?e }}".replace("?x", x.n3()))}
        progs = {str(r[0]) for r in q(g, f"SELECT ?p WHERE {{ ?x {prog} ?p }}".replace("?x", x.n3()))}
    else:
        ents = {str(r[0]) for r in q(g, f"SELECT ?e WHERE {{ ?x {step}+ ?e }}".replace("?x", x.n3()))}
        progs = {str(r[0]) for r in q(g, f"SELECT ?p WHERE {{ ?x {step}*/{prog} ?p }}".replace("?x", x.n3()))}
    ents.discard(iri)
    return ents, progs


class Tool:
    """Runs a tool; every failure is an AssertionError naming the command."""

    def __init__(self, path):
        self.path = path

    def run(self, *args, expect=0, cwd=None):
        r = subprocess.run([self.path, *args], capture_output=True, text=True, cwd=cwd)
        if expect is not None and r.returncode != expect:
            raise AssertionError(f"{' '.join([self.path, *args])}: exit {r.returncode}, want {expect}\n"
                                 f"stdout: {r.stdout[:2000]}\nstderr: {r.stderr[:2000]}")
        return r

    def json(self, *args, cwd=None):
        r = self.run(*args, "-f", "json", cwd=cwd)
        data = json.loads(r.stdout)
        cols = data["head"]["vars"]
        return [{c: b[c]["value"] for c in cols if c in b} for b in data["results"]["bindings"]]


failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
        print("FAIL:", message, file=sys.stderr)


def finish(name):
    if failures:
        print(f"{name}: {len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: all checks passed")
