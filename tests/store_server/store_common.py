"""What the store-server cases share: arguments, the server under test (the private Virtuoso of
virtuoso.py or the Oxigraph front of oxigraph.py), running the tools, and reading graphs back.

  CASE_SCRIPT CASE [--engine virtuoso|oxigraph] --server-dir D --merge M --query Q --viz V
              --record R --a A --b B --c C --preload P --work W"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oxigraph  # noqa: E402
import virtuoso  # noqa: E402
import rdflib  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("case")
ap.add_argument("--engine", choices=("virtuoso", "oxigraph"), default="virtuoso")
for name in ("server-dir", "merge", "query", "viz", "record", "a", "b", "c", "work", "preload"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()
server = (oxigraph if args.engine == "oxigraph" else virtuoso).info(os.path.abspath(args.server_dir))
BASE = f"http://127.0.0.1:{server['http']}"
if args.engine == "oxigraph":  # Fuseki's layout: the tools derive the query URL from the store's
    STORE, ENDPOINT = f"{BASE}/{server['dataset']}/data", f"{BASE}/{server['dataset']}/query"
    ENV = dict(os.environ)
else:
    STORE, ENDPOINT = BASE + "/sparql-graph-crud-auth", BASE + "/sparql"
    ENV = dict(os.environ, PROVIO_CREDENTIALS=server["netrc"])
ENV.pop("PROVIO_CONFIG", None)
XSD = "http://www.w3.org/2001/XMLSchema#"
XSD_DOUBLE = XSD + "double"
# Oxigraph keeps every integer type as xsd:integer (the same value: RDF 1.1 literal value equality)
XSD_INTEGERS = {XSD + t for t in ("integer", "long", "unsignedLong", "int", "nonNegativeInteger")}
work = os.path.realpath(os.path.join(args.work, args.case))
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
# Cases share the server one at a time (RESOURCE_LOCK) and start from an empty store; job names
# still carry the case, so a failed case's leftovers are recognisable.
PREFIX = args.case + "-"


def run(*cmd, expect=0, **kw):
    r = subprocess.run([str(c) for c in cmd], env=kw.pop("env", ENV), capture_output=True, text=True, cwd=work, **kw)
    if expect is not None and r.returncode != expect:
        sys.exit(f"FAIL: {' '.join(map(str, cmd))} exited {r.returncode}, expected {expect}\n{r.stdout}\n{r.stderr}")
    return r


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)
    print("ok:", what)


def program(prog, job, *ops):
    run(prog, *ops, env=dict(ENV, PROVIO_DIR=os.path.join(work, "prov", job)))


def into(*inputs, expect=0, extra=()):
    return run(args.merge, *inputs, "--into", STORE, *extra, expect=expect)


def value(term):
    """A term for comparison: doubles by value (a store may print them in another form)."""
    if isinstance(term, rdflib.Literal) and str(term.datatype) == XSD_DOUBLE:
        return ("double", float(term))
    if isinstance(term, rdflib.Literal) and str(term.datatype) in XSD_INTEGERS:
        return ("integer", int(term))
    return term


def server_graph(job):
    """The triples of a job's graph on the server, read with STR() (exact doubles)."""
    q = (f"SELECT ?s ?p ?o (STR(?o) AS ?lex) WHERE {{ GRAPH <urn:provio:graph:{job}> {{ ?s ?p ?o }} }}")
    data = urllib.parse.urlencode({"query": q}).encode()
    req = urllib.request.Request(ENDPOINT, data, {"Accept": "application/sparql-results+json"})
    out = set()
    for b in json.load(urllib.request.urlopen(req))["results"]["bindings"]:
        def term(t, lex=None):
            if t["type"] == "uri":
                return rdflib.URIRef(t["value"])
            if t["type"] == "bnode":
                return ("bnode",)
            return rdflib.Literal(lex if lex is not None else t["value"], datatype=t.get("datatype"),
                                  lang=t.get("xml:lang"))
        out.add((term(b["s"]), term(b["p"]), value(term(b["o"], b["lex"]["value"]))))
    return out


def local_graph(*inputs):
    out = os.path.join(work, "local.nt")
    run(args.merge, "-q", *inputs, "-o", out)
    g = rdflib.Graph()
    g.parse(out, format="nt")
    return {(s, p, value(o)) for s, p, o in g}


def reset():
    """Removes every provio job graph from the server."""
    for g in graphs():
        if g.startswith("urn:provio:graph:"):
            run(args.merge, "-q", "--into", STORE, "--remove", urllib.parse.unquote(g[len("urn:provio:graph:"):]))
    check(not [g for g in graphs() if g.startswith("urn:provio:graph:")], "the store starts empty")


def scenario():
    """The DASSA chain across two jobs, plus a multi-thread, multi-flush job."""
    program(args.a, PREFIX + "job1", "create:WestSac.h5:0", "write:WestSac.h5:/das/strain:4096x8", "close:WestSac.h5:0")
    program(args.b, PREFIX + "job2", "open:WestSac.h5:0", "read:WestSac.h5:/das/strain:4096x8", "close:WestSac.h5:0",
            "create:decimate.h5:0", "write:decimate.h5:/dec:1024x4", "close:decimate.h5:0")
    program(args.c, PREFIX + "job2", "open:decimate.h5:0", "read:decimate.h5:/dec:1024x4", "close:decimate.h5:0",
            "create:detections.csv:0", "write:detections.csv:100")
    run(args.record, "--threads", 2, "--events", 3, "--flushes", 4, "--write", os.path.join(work, "raw.h5"),
        env=dict(ENV, PROVIO_DIR=os.path.join(work, "prov", PREFIX + "job3")))
    return [os.path.join(work, "prov", PREFIX + j) for j in ("job1", "job2", "job3")]


def graphs():
    q = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"
    data = urllib.parse.urlencode({"query": q}).encode()
    req = urllib.request.Request(ENDPOINT, data, {"Accept": "application/sparql-results+json"})
    return [b["g"]["value"] for b in json.load(urllib.request.urlopen(req))["results"]["bindings"]]
