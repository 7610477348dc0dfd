"""Reads the raw per-thread provenance files of a test run with rdflib, independently of provio's
own tools: every file must parse on its own; what the raw format leaves out is added from
docs/format.md (tests/raw_graph.py); summary parts are folded (count and bytes summed)."""
import os
import subprocess
import sys
import urllib.parse

import rdflib
from rdflib import RDF, Namespace, URIRef

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import raw_graph  # noqa: E402
import zstd_raw  # noqa: E402

PROV = Namespace("http://www.w3.org/ns/prov#")
PIO = Namespace("http://www.w3.org/ns/provio#")


def fail(msg):
    print("FAIL: " + str(msg), file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def load(directory):
    files = zstd_raw.raw_files(directory, recursive=True)
    check(files, "no provenance files under " + directory)
    g = rdflib.Graph()
    for f in files:
        part = rdflib.Graph()
        try:
            zstd_raw.parse(f, part)
        except Exception as e:  # noqa: BLE001
            fail("%s does not parse: %s" % (f, e))
        g += raw_graph.complete(part)
    return g


def path_of(iri):
    """The file path an entity IRI names (lossless: percent-decoded to bytes)."""
    s = str(iri)
    assert s.startswith("file://"), s
    return urllib.parse.unquote_to_bytes(s[len("file://"):])


class Activity:
    def __init__(self, g, a):
        self.iri = a
        self.api = str(g.value(a, PIO.api))
        types = {str(t) for t in g.objects(a, RDF.type)}
        self.cls = next((t[len(str(PIO)):] for t in types if t.startswith(str(PIO))), None)
        self.thread = g.value(a, PROV.wasAssociatedWith)
        self.run = g.value(self.thread, PROV.actedOnBehalfOf)
        self.nested = (a, PIO.nested, None) in g
        rel = PIO["was" + {"Create": "Created", "Open": "Opened", "Read": "Read", "Write": "Written",
                            "Flush": "Flushed", "Close": "Closed", "Rename": "Renamed",
                            "Delete": "Deleted", "Modify": "Modified", "Copy": "Copied",
                            "Access": "Accessed"}[self.cls] + "By"]
        ents = list(g.subjects(rel, a))
        assert len(ents) == 1, (a, ents)
        self.entity = ents[0]
        versions = set(g.subjects(RDF.type, PIO.Version))
        others = [o for o in g.subjects(PROV.wasGeneratedBy, a) if o != self.entity and o not in versions]
        self.other = others[0] if others else None
        # The version a close left or an open read (docs/format.md, "Versions").
        touched = set(g.subjects(PROV.wasGeneratedBy, a)) | set(g.objects(a, PROV.used))
        self.version = next((v for v in touched if v in versions), None)
        self.count = raw_graph.measure(g, a, "count")
        self.bytes = raw_graph.measure(g, a, "bytes")

    def path(self):
        return path_of(self.entity)

    def __repr__(self):
        return "%s/%s %s count=%d bytes=%d" % (self.api, self.cls, self.path(), self.count, self.bytes)


def activities(g):
    return [Activity(g, a) for a in set(g.subjects(RDF.type, PROV.Activity))]


def runs(g):
    """run IRI -> {executable, commandLine, parent, pid}"""
    out = {}
    for r in g.subjects(RDF.type, PIO.Program):
        out[r] = {
            "executable": str(g.value(r, PIO.executable)),
            "commandLine": str(g.value(r, PIO.commandLine)),
            "parent": g.value(r, PIO.parentRun),
            "pid": int(g.value(r, PIO.pid)),
        }
    return out


def select(acts, path=None, cls=None, api=None, under=None):
    out = []
    for a in acts:
        p = a.path()
        if path is not None and p != os.fsencode(path):
            continue
        if under is not None:
            u = os.fsencode(under.rstrip("/"))
            if p != u and not p.startswith(u + b"/"):
                continue
        if cls is not None and a.cls != cls:
            continue
        if api is not None and a.api != api:
            continue
        out.append(a)
    return out


def total(acts, field="count"):
    return sum(getattr(a, field) for a in acts)


def run_traced(argv, prov_dir, preload, env_extra=None, **kw):
    env = dict(os.environ)
    env["PROVIO_DIR"] = prov_dir
    env["LD_PRELOAD"] = preload
    env.update(env_extra or {})
    return subprocess.run(argv, env=env, check=True, **kw)


def run_at_trace_level(argv, prov_dir, preload, buffer_events):
    """Runs argv at trace level with trace buffers of `buffer_events` events (small buffers: many
    hand-offs to the background writer); a failed run fails the test with its stderr."""
    try:
        run_traced(argv, prov_dir, preload,
                   env_extra={"PROVIO_LEVEL": "trace", "PROVIO_TRACE_EVENTS": str(buffer_events)},
                   stderr=subprocess.PIPE, text=True)
    except subprocess.CalledProcessError as e:
        check(False, "%s exited %d: %s" % (os.path.basename(argv[0]), e.returncode, e.stderr.strip()))
