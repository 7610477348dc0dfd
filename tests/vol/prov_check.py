#!/usr/bin/python3
"""Checks on the raw per-thread provenance files the VOL connector leaves (rdflib, independent of
provio's own tools). Each subcommand exits 0 when its assertions hold, 1 with a message otherwise.

  prov_check.py mpi DIR DATASET_IRI COLS RANKS    per-rank H5Dwrite / H5Dread bytes and modes
  prov_check.py repack DIR INPUT OUTPUT           reads of INPUT's datasets, writes of OUTPUT's
  prov_check.py ops DIR FILE                      exact records of `vol_sample ops FILE`
  prov_check.py wrote DIR IRI BYTES               H5Dwrite of IRI moved exactly BYTES
  prov_check.py has DIR API [API…]                each API appears (and every file parses)
  prov_check.py times DIR BEFORE_NS AFTER_NS      every recorded call started and ended inside the run
"""
import datetime
import os
import sys

import rdflib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import raw_graph  # noqa: E402
import zstd_raw  # noqa: E402

PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
PIO = rdflib.Namespace("http://www.w3.org/ns/provio#")


def fail(msg):
    print("prov_check: " + msg, file=sys.stderr)
    sys.exit(1)


def load(d):
    files = zstd_raw.raw_files(d)
    if not files:
        fail("no provenance files in " + d)
    graphs = []
    for f in files:
        graphs.append((f, raw_graph.load(f)))
    return graphs


def measure(g, act, prop):
    """A measure of an activity: its own value plus its parts' (summary level)."""
    return raw_graph.measure(g, act, prop[len(str(PIO)):])


def activities(g, api):
    return [a for a in g.subjects(PIO.api, rdflib.Literal(api))]


def entity_of(g, act, relation):
    return [e for e in g.subjects(relation, act)]


def rank_of(g):
    ranks = [int(n) for n in g.objects(None, PIO.rankNumber)]
    if len(ranks) != 1:
        fail("expected one rank per file, found %r" % ranks)
    return ranks[0]


def cmd_mpi(d, dataset, cols, nranks):
    """vol_mpi_rw's provenance: each rank's block written once collectively and once
    independently (its transfer list switched in place), the whole dataset read independently."""
    cols, nranks = int(cols), int(nranks)
    dataset = rdflib.URIRef(dataset)
    rows = nranks * (nranks + 1) // 2
    seen = {}
    for f, g in load(d):
        r = rank_of(g)
        written = {}  # transfer mode -> bytes
        read = 0
        for a in activities(g, "H5Dwrite"):
            if dataset in entity_of(g, a, PIO.wasWrittenBy):
                modes = [str(m) for m in g.objects(a, PIO.transfer)]
                if len(modes) != 1:
                    fail("%s: rank %d write transfer %r, expected one mode" % (f, r, modes))
                written[modes[0]] = written.get(modes[0], 0) + measure(g, a, PIO.bytes)
        for a in activities(g, "H5Dread"):
            if dataset in entity_of(g, a, PIO.wasReadBy):
                read += measure(g, a, PIO.bytes)
                modes = [str(m) for m in g.objects(a, PIO.transfer)]
                if modes != ["independent"]:
                    fail("%s: rank %d read transfer %r, expected independent" % (f, r, modes))
        if written or read:
            seen[r] = (written, read)
        for api in ("H5Fcreate", "H5Gcreate", "H5Dcreate", "H5Acreate", "H5Awrite", "H5Fopen", "H5Aread"):
            if not activities(g, api):
                fail("%s: rank %d has no %s activity" % (f, r, api))
    for r in range(nranks):
        want_w = (r + 1) * cols * 8
        want = ({"collective": want_w, "independent": want_w}, rows * cols * 8)
        got = seen.get(r)
        if got != want:
            fail("rank %d: (written by mode, read) bytes %r, expected %r" % (r, got, want))
        print("rank %d wrote %d bytes collectively and %d independently, read %d independently" %
              (r, want_w, want_w, want[1]))


def cmd_repack(d, inp, out):
    inp = "file://" + os.path.realpath(inp)
    out = "file://" + os.path.realpath(out)
    read_in = written_out = 0
    opened_in = created_out = False
    graphs = load(d)
    for f, g in graphs:
        for a in activities(g, "H5Dread"):
            for e in entity_of(g, a, PIO.wasReadBy):
                if str(e).startswith(inp + "#"):
                    read_in += measure(g, a, PIO.bytes)
        for a in activities(g, "H5Dwrite"):
            for e in entity_of(g, a, PIO.wasWrittenBy):
                if str(e).startswith(out + "#"):
                    written_out += measure(g, a, PIO.bytes)
        for a in activities(g, "H5Fopen"):
            opened_in |= rdflib.URIRef(inp) in entity_of(g, a, PIO.wasOpenedBy)
        for a in activities(g, "H5Fcreate"):
            created_out |= rdflib.URIRef(out) in entity_of(g, a, PIO.wasCreatedBy)
    # Every dataset of the input reaches the output: rewritten (H5Dwrite) or copied (H5Ocopy,
    # recorded as output wasDerivedFrom input).
    for path in ("/grid/level1/temperature", "/grid/counts", "/particles"):
        src, dst = rdflib.URIRef(inp + "#" + path), rdflib.URIRef(out + "#" + path)
        derived = any((dst, PROV.wasDerivedFrom, src) in g for _, g in graphs)
        written = any(dst in entity_of(g, a, PIO.wasWrittenBy) for _, g in graphs for a in activities(g, "H5Dwrite"))
        if not (derived or written):
            fail("output %s neither written nor derived from the input" % path)
    if not opened_in:
        fail("no H5Fopen of " + inp)
    if not created_out:
        fail("no H5Fcreate of " + out)
    if read_in <= 0 or written_out <= 0:
        fail("bytes read from input %d, written to output %d" % (read_in, written_out))
    print("repack: read %d bytes of %s, wrote %d bytes of %s" % (read_in, inp, written_out, out))


def cmd_ops(d, path):
    graphs = load(d)
    base = "file://" + os.path.realpath(path)

    def iri(p):
        return rdflib.URIRef(base + "#" + p)

    def by_entity(api, relation):
        """{entity IRI: (count, bytes)} of an API's activities, over all files."""
        out = {}
        for _, g in graphs:
            for a in activities(g, api):
                for e in entity_of(g, a, relation):
                    c, b = out.get(e, (0, 0))
                    out[e] = (c + measure(g, a, PIO["count"]), b + measure(g, a, PIO.bytes))
        return out

    def expect(what, got, want):
        if got != want:
            fail("%s: got %r, expected %r" % (what, got, want))

    def derived(new, old):
        return any((iri(new), PROV.wasDerivedFrom, iri(old)) in g for _, g in graphs)

    expect("H5Dwrite_multi", by_entity("H5Dwrite_multi", PIO.wasWrittenBy),
           {iri("/g/a"): (1, 40), iri("/g/b"): (1, 160), iri("/c"): (1, 20)})
    expect("H5Dread_multi", by_entity("H5Dread_multi", PIO.wasReadBy),
           {iri("/g/a"): (2, 40 + 12), iri("/g/b"): (2, 160 + 40)})
    expect("H5Dset_extent", by_entity("H5Dset_extent", PIO.wasModifiedBy), {iri("/g/a"): (1, 0)})
    writes = by_entity("H5Dwrite", PIO.wasWrittenBy)
    expect("H5Dwrite after set_extent (extent cache refreshed)", writes.get(iri("/g/a")), (1, 80))
    anon = [e for e in writes if str(e).startswith(base + "#//anonymous/")]
    expect("anonymous dataset writes", [writes[e] for e in anon], [(1, 40)])
    expect("H5Lmove", by_entity("H5Lmove", PIO.wasRenamedBy), {iri("/c"): (1, 0)})
    expect("H5Lmove target derived", derived("/g/c2", "/c"), True)
    expect("H5Lcopy", by_entity("H5Lcopy", PIO.wasCopiedBy), {iri("/g/b"): (1, 0)})
    expect("H5Lcopy target derived", derived("/bcopy", "/g/b"), True)
    expect("H5Ldelete", by_entity("H5Ldelete", PIO.wasDeletedBy), {iri("/bcopy"): (1, 0)})
    expect("H5Arename", by_entity("H5Arename", PIO.wasRenamedBy), {iri("/g@old"): (1, 0)})
    expect("H5Arename target derived", derived("/g@new", "/g@old"), True)
    expect("H5Adelete", by_entity("H5Adelete", PIO.wasDeletedBy), {iri("/g@new"): (1, 0)})
    # Read back after its close: 3 elements as 4-byte ints, then as doubles.
    expect("H5Aread", by_entity("H5Aread", PIO.wasReadBy), {iri("/g/b@wide"): (2, 36), iri("/@top"): (1, 4)})
    expect("H5Awrite", by_entity("H5Awrite", PIO.wasWrittenBy), {iri("/g/b@wide"): (1, 24), iri("/@top"): (1, 4)})
    expect("H5Ocopy", by_entity("H5Ocopy", PIO.wasCopiedBy), {iri("/g"): (1, 0)})
    expect("H5Ocopy target derived", derived("/gcopy", "/g"), True)
    # Objects HDF5 opened by itself are named like the ones opened by name: one IRI each.
    # Two closes: the committed type from H5Dget_type and the one committed in place.
    expect("H5Tclose of the type from H5Dget_type", by_entity("H5Tclose", PIO.wasClosedBy), {iri("/t"): (2, 0)})
    expect("H5Oopen by token", by_entity("H5Oopen", PIO.wasOpenedBy), {iri("/g/b"): (1, 0)})
    # /x of the external file is closed three times: after writing it, after reading it through
    # the link, and once by HDF5 itself, which opens and closes the target while traversing the
    # link; all three belong to the external file, none to the linking one.
    ext = rdflib.URIRef("file://" + os.path.realpath(path + ".ext.h5") + "#/x")
    expect("H5Dclose", by_entity("H5Dclose", PIO.wasClosedBy),
           {iri("/g/a"): (1, 0), iri("/g/b"): (2, 0), iri("/c"): (1, 0), iri("/d_t"): (1, 0),
            anon[0]: (1, 0), ext: (3, 0)})
    expect("H5Lcreate_external", by_entity("H5Lcreate_external", PIO.wasCreatedBy), {iri("/g/ext"): (1, 0)})
    # b's 5 selected elements read as doubles, then as floats.
    expect("H5Dread with a selection, and through the external link", by_entity("H5Dread", PIO.wasReadBy),
           {iri("/g/b"): (2, 40 + 20), ext: (1, 20)})
    print("ops: every hand-written callback recorded exactly")


def cmd_wrote(d, iri, nbytes):
    total = 0
    for _, g in load(d):
        for a in activities(g, "H5Dwrite"):
            if rdflib.URIRef(iri) in entity_of(g, a, PIO.wasWrittenBy):
                total += measure(g, a, PIO.bytes)
    if total != int(nbytes):
        fail("H5Dwrite of %s: %d bytes, expected %s" % (iri, total, nbytes))


def cmd_has(d, *apis):
    graphs = load(d)
    for api in apis:
        if not any(activities(g, api) for _, g in graphs):
            fail("no %s activity in %s" % (api, d))


def cmd_times(d, before_ns, after_ns):
    """The connector times a call with the monotonic clock and derives its wall-clock start from
    an offset it re-reads every millisecond: every start and end must fall inside the run (1 ms
    of slack for the microsecond rounding of the program's start time)."""
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    lo = epoch + datetime.timedelta(microseconds=int(before_ns) // 1000 - 1000)
    hi = epoch + datetime.timedelta(microseconds=int(after_ns) // 1000 + 1000)
    n = 0
    for f, g in load(d):
        for node, start in g.subject_objects(PROV.startedAtTime):
            if g.value(node, PIO.api) is None and g.value(None, PIO.partial, node) is None:
                continue  # agents (the program's own start) are not calls
            end = g.value(node, PROV.endedAtTime)
            s, e = start.toPython(), end.toPython() if end is not None else None
            if not (lo <= s <= hi) or e is None or not (s <= e <= hi):
                fail("%s: %s ran %s .. %s, outside the run %s .. %s" % (f, node, s, e, lo, hi))
            n += 1
    if n == 0:
        fail("no timed call in " + d)
    print("times: %d timed activities inside the run" % n)


def main(argv):
    cmds = {"mpi": cmd_mpi, "repack": cmd_repack, "ops": cmd_ops, "wrote": cmd_wrote, "has": cmd_has,
            "times": cmd_times}
    if len(argv) < 3 or argv[1] not in cmds:
        print(__doc__, file=sys.stderr)
        return 1
    cmds[argv[1]](*argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
