"""Reads one raw per-thread provenance file with rdflib and adds what the raw format leaves out,
following docs/format.md ("What prov-merge adds") and not prov-merge's code, so that tests check
raw files independently of provio's tools.

    g = raw_graph.load("provio/vm-12-t0.ttl")   # rdflib.Graph, completed
    raw_graph.complete(g)                       # the same on a graph read some other way
    raw_graph.measure(g, activity, "count")     # its own measures plus its parts'

Files of the format before (statements written out in full) come out unchanged.
"""
import datetime
import re
import urllib.parse

import rdflib
from rdflib import RDF, Literal, Namespace
from rdflib.namespace import XSD

import zstd_raw

PROV = Namespace("http://www.w3.org/ns/prov#")
PIO = Namespace("http://www.w3.org/ns/provio#")

RELATION = {"Create": "wasCreatedBy", "Open": "wasOpenedBy", "Read": "wasReadBy", "Write": "wasWrittenBy",
            "Flush": "wasFlushedBy", "Close": "wasClosedBy", "Rename": "wasRenamedBy", "Delete": "wasDeletedBy",
            "Modify": "wasModifiedBy", "Copy": "wasCopiedBy", "Access": "wasAccessedBy"}
ENTITIES = ("File", "Directory", "Group", "Dataset", "Attribute", "Datatype", "Link", "Object", "Version")
AGENTS = ("User", "Program", "Rank", "Thread")
RANGES = {"count": (XSD.integer, XSD.unsignedLong), "bytes": (XSD.integer, XSD.unsignedLong),
          "offset": (XSD.integer, XSD.long), "elapsed": (XSD.decimal, XSD.double)}
SIZE_BUCKETS = ("0_100", "100_1k", "1k_10k", "10k_100k", "100k_1m", "1m_4m", "4m_10m", "10m_100m", "100m_1g",
                "1g_plus")
SIZES = [f"size_{d}_{b}" for d in ("read", "write") for b in SIZE_BUCKETS]  # access sizes: counts
RANGES.update({name: (XSD.integer, XSD.unsignedLong) for name in SIZES})


def _datetime(us):
    t = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(microseconds=us)
    return Literal(t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), datatype=XSD.dateTime)


def _us(literal):
    t = literal.toPython()
    return (t - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(microseconds=1)


# A summary activity's IRI: <thread IRI>/<api>-<Op>-e<n>[-<m>][-f<flags>], its thread IRI ending
# in /thread/<k>; its block leaves class, API, thread and entity (the one numbered <thread IRI>/e<n>
# by provio:n in its file) to it.
SUMMARY_NAME = re.compile(r"^(.*/thread/\d+)/([^/]+)-(" + "|".join(RELATION) + r")-e(\d+)(?:-\d+)?(?:-f\d+)?$")
GENERATING = ("Create", "Write", "Modify")
SUMMARY_PREDICATES = [RDF.type, PROV.used, PROV.generated] + [
    PIO[p] for p in ("count", "partial", "transfer", "nested", "coarse")]


def complete(g):
    numbered = {number: e for e, number in g.subject_objects(PIO.n)}  # <thread IRI>/e<n> → entity
    g.remove((None, PIO.n, None))
    for s in {s for p in SUMMARY_PREDICATES for s in g.subjects(p, None)}:
        m = SUMMARY_NAME.match(str(s)) if isinstance(s, rdflib.URIRef) else None
        if m and g.value(s, PIO.api) is None:
            g.add((s, RDF.type, PIO[m.group(3)]))
            g.add((s, PIO.api, Literal(urllib.parse.unquote(m.group(2)))))
            g.add((s, PROV.wasAssociatedWith, rdflib.URIRef(m.group(1))))
            entity = numbered.get(rdflib.URIRef(m.group(1) + "/e" + m.group(4)))
            if entity is not None:
                g.add((s, PROV.generated if m.group(3) in GENERATING else PROV.used, entity))
    # Bytes of 0 are left out.
    for node in list(g.subjects(PIO["count"], None)):  # PIO.count is str.count
        if g.value(node, PIO.bytes) is None:
            g.add((node, PIO.bytes, Literal("0", datatype=XSD.unsignedLong)))
    activities = {}
    for cls, rel in RELATION.items():
        for a in g.subjects(RDF.type, PIO[cls]):
            activities[a] = PIO[rel]
            g.add((a, RDF.type, PROV.Activity))
    for cls in ENTITIES:
        for e in list(g.subjects(RDF.type, PIO[cls])):
            g.add((e, RDF.type, PROV.Entity))
    for cls in AGENTS:
        for x in list(g.subjects(RDF.type, PIO[cls])):
            g.add((x, RDF.type, PROV.Agent))

    def program(a):
        thread = g.value(a, PROV.wasAssociatedWith)
        return g.value(thread, PROV.actedOnBehalfOf) if thread is not None else None

    # A version takes prov:used / prov:wasGeneratedBy only, no provio:wasXxxBy.
    versions = set(g.subjects(RDF.type, PIO.Version))
    for a, rel in activities.items():
        for e in list(g.objects(a, PROV.used)):
            if e not in versions:
                g.add((e, rel, a))
        for e in list(g.objects(a, PROV.generated)):
            g.remove((a, PROV.generated, e))
            g.add((e, PROV.wasGeneratedBy, a))
            if e not in versions:
                g.add((e, rel, a))
            if program(a) is not None:
                g.add((e, PROV.wasAttributedTo, program(a)))
    for name, (bare, typed) in RANGES.items():
        for s, o in list(g.subject_objects(PIO[name])):
            if isinstance(o, Literal) and o.datatype == bare:
                g.remove((s, PIO[name], o))
                g.add((s, PIO[name], Literal(str(o), datatype=typed)))
    for node, start in list(g.subject_objects(PIO.start)):
        span = g.value(node, PIO.span)
        owner = g.value(None, PIO.partial, node) or node
        prog = program(owner)
        base = g.value(prog, PIO.startTime) if prog is not None else None
        if span is None or base is None:
            continue
        begin = _us(base) + int(start)
        g.add((node, PROV.startedAtTime, _datetime(begin)))
        g.add((node, PROV.endedAtTime, _datetime(begin + int(span))))
        g.remove((node, PIO.start, None))
        g.remove((node, PIO.span, None))
    return g


def load(path):
    return complete(zstd_raw.parse(path))


def load_complete_lines(path):
    """A raw file's graph from its complete lines, and the number of its last line when the file
    ends mid-line (else None): a process killed while a flush was being written can leave one so
    (docs/reliability.md)."""
    data = zstd_raw.read_bytes(path)
    cut = None
    if data and not data.endswith(b"\n"):
        cut = data.count(b"\n") + 1
        data = data[:data.rfind(b"\n") + 1]
    g = rdflib.Graph()
    g.parse(data=data.decode("utf-8"), format="turtle")
    return complete(g), cut


def measure(g, activity, name):
    """An activity's measure: its own value (first flush, or trace) plus those of its parts."""
    nodes = [activity] + list(g.objects(activity, PIO.partial))
    return sum(int(v) for n in nodes for v in g.objects(n, PIO[name]))
