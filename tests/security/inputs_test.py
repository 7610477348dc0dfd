#!/usr/bin/python3
"""The three tools on damaged, hostile and special inputs (docs/security.md, issue 14 defects
4-9): whatever prov-merge writes loads in rdflib and rapper; FIFOs never block; a damaged region
costs only the statements it touches; nothing is dropped in silence; nothing aborts.

  inputs_test.py CASE --merge PROV_MERGE --query PROV_QUERY --viz PROV_VIZ --record RECORD_EVENTS
"""
import os
import signal
import subprocess
import sys
import time

import rdflib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cases  # noqa: E402
from common import (as_nobody, check, copy_for_nobody, fail, rdf_loads, record, run,  # noqa: E402
                    scratch_dir)

ARGS = None


def raw_file(d):
    """One real raw provenance file, and its text."""
    [f] = record(ARGS.record, os.path.join(d, "raw"))[:1]
    with open(f, "rb") as fh:
        return f, fh.read()


def header_of(text):
    """The @prefix lines a raw file starts with."""
    lines = text.split(b"\n")
    n = next(i for i, l in enumerate(lines) if not l.startswith(b"@prefix"))
    return b"\n".join(lines[:n]) + b"\n"


def put(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def merge(*args, expect=None, timeout=60):
    return run([ARGS.merge, *args], expect=expect, timeout=timeout)


def triples(path, fmt="nt"):
    return set(rdflib.Graph().parse(path, format=fmt))


def messages(p):
    return [l for l in p.err.splitlines() if "triples/s" not in l]


def case_utf8():
    """Defect 4: an IRI that is not UTF-8 is dropped and reported; the output stays valid RDF."""
    with scratch_dir("utf8") as d:
        src, text = raw_file(d)
        n = text.count(b"\n")
        bad = put(os.path.join(d, "bad.ttl"), text + b'<urn:x:a\xffb> <urn:p> "v" .\n'
                  + b'<urn:x:ok> <urn:p> "caf\xc3\xa9 \xe2\x82\xac" .\n'
                  + b'<urn:x:lit> <urn:p> "over\xc0\xaflong" .\n')
        for out in (os.path.join(d, "m.ttl"), os.path.join(d, "m.nt")):
            p = merge(bad, "-o", out, expect=2)
            want = [f"prov-merge: {bad}:{n + 1}:9: invalid UTF-8; line dropped",
                    f"prov-merge: {bad}:{n + 3}:26: invalid UTF-8; line dropped"]
            check(messages(p) == want, "messages:\n" + "\n".join(messages(p)))
            rdf_loads(out, "turtle" if out.endswith(".ttl") else "nt")
        g = triples(os.path.join(d, "m.nt"))
        check((rdflib.URIRef("urn:x:ok"), rdflib.URIRef("urn:p"), rdflib.Literal("café €")) in g,
              "the valid non-ASCII statement after the damage was lost")


def case_fifo():
    """Defect 5: FIFOs in a directory or given as input never block; --follow stops on signals."""
    with scratch_dir("fifo") as d:
        src, _ = raw_file(d)
        jobdir = os.path.dirname(src)
        fifo = os.path.join(jobdir, "pipe.ttl")
        os.mkfifo(fifo)
        want = f"{fifo}: skipped: a FIFO, not a regular file"
        out = os.path.join(d, "m.ttl")
        for inputs in ([jobdir], [src, fifo]):
            p = merge(*inputs, "-o", out, expect=2, timeout=20)
            check(f"prov-merge: {want}" in p.err.splitlines(), p.err)
            rdf_loads(out, "turtle")
        for inputs in ([jobdir], [fifo]):
            p = run([ARGS.query, "stats", *inputs], expect=2, timeout=20)
            check(p.err.startswith("prov-query: ") and "FIFO, not a regular file" in p.err, p.err)
        p = run([ARGS.viz, "report", "-o", os.path.join(d, "r.html"), jobdir], expect=2, timeout=20)
        check("FIFO, not a regular file" in p.err, p.err)
        # --follow: SIGTERM (and SIGINT) end it after one last merge, FIFO or not
        for sig in (signal.SIGTERM, signal.SIGINT):
            proc = subprocess.Popen([ARGS.merge, "--follow", "--interval", "0.2", jobdir, "-o", out],
                                    stderr=subprocess.PIPE, text=True)
            time.sleep(1)
            proc.send_signal(sig)
            try:
                _, err = proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                fail(f"prov-merge --follow ignored signal {sig}")
            check(proc.returncode == 2 and want in err, f"--follow after {sig}: exit {proc.returncode}\n{err}")


def case_nul():
    """Defect 6: NUL bytes cost the lines they are on, not the file; beyond 1 MiB too."""
    with scratch_dir("nul") as d:
        src, text = raw_file(d)
        clean = os.path.join(d, "clean.nt")
        merge(src, "-o", clean, expect=0)
        want = triples(clean)
        out = os.path.join(d, "m.nt")
        lines = text.split(b"\n")
        n = len(lines) - 1  # the text ends with a newline
        # a node crash: a NUL-filled tail (with and without newlines in it)
        for tail in (b"\0" * 4096, (b"\0" * 100 + b"\n") * 3):
            bad = put(os.path.join(d, "tail.ttl"), text + tail)
            p = merge(bad, "-o", out, expect=2)
            check(triples(out) == want, "statements before a NUL tail were lost")
            check(f"prov-merge: {bad}:{n + 1}:1: NUL bytes; line dropped" in p.err.splitlines(), p.err)
        # a NUL block in the middle costs that line only: the result is the merge of the file
        # without it (summary parts are folded, so not a subset of the clean merge)
        # (a statement line: a damaged @prefix line also costs the lines that use its prefix)
        k = max(i for i in range(n - 5) if not lines[i].startswith(b"@prefix"))
        hole = put(os.path.join(d, "hole.ttl"), b"\n".join(lines[:k] + [b"\0" * len(lines[k])] + lines[k + 1:]))
        without = put(os.path.join(d, "without.ttl"), b"\n".join(lines[:k] + lines[k + 1:]))
        merge(without, "-o", clean, expect=0)
        p = merge(hole, "-o", out, expect=2)
        check(triples(out) == triples(clean), "a NUL line cost more than its own statement")
        check(messages(p) == [f"prov-merge: {hole}:{k + 1}:1: NUL bytes; line dropped"], p.err)
        # beyond the first MiB, a NUL inside a literal is reported, never a silently cut literal
        filler = b"".join(b'<urn:x:s%d> <urn:p> "%s" .\n' % (i, b"y" * 100) for i in range(12000))
        big = header_of(text) + filler + b'<urn:x:cut> <urn:p> "ab\0cd" .\n<urn:x:after> <urn:p> "z" .\n'
        check(len(big) > 1 << 20, "test input too small")
        bad = put(os.path.join(d, "big.ttl"), big)
        p = merge(bad, "-o", out, expect=2)
        got = triples(out)
        check(not any(s == rdflib.URIRef("urn:x:cut") for s, _, _ in got), "a literal cut at a NUL was kept")
        check(len(got) == 12001, f"{len(got)} statements kept of 12001 whole ones")
        check(any(m.endswith("NUL bytes; line dropped") for m in messages(p)), p.err)


def case_splice():
    """Defect 7: two damaged lines never make a statement; a statement is kept only if whole."""
    with scratch_dir("splice") as d:
        _, text = raw_file(d)
        h = header_of(text)
        n = h.count(b"\n")
        body = (b'<urn:x:s> <urn:p> """abc\n'
                b'def""" . <urn:x:broken\n'
                b"garbage !!\n"
                b'<urn:x:ok> <urn:p> "fine" .\n'
                b'<urn:x:t> <urn:p> <urn:x:o1> , <urn:x:o2> . ###\n'
                b'<urn:x:u> <urn:p> <urn:x:o1> , "\n')
        bad = put(os.path.join(d, "splice.ttl"), h + body)
        out = os.path.join(d, "m.nt")
        p = merge(bad, "-o", out, expect=2)
        got = triples(out)
        subjects = {str(s) for s, _, _ in got}
        check(subjects == {"urn:x:ok", "urn:x:t"}, f"statements kept from damaged lines: {sorted(subjects)}")
        dropped = [m for m in messages(p) if "line dropped" in m or "truncated" in m]
        for line in (n + 1, n + 2, n + 3, n + 6):
            check(any(f"splice.ttl:{line}:" in m for m in dropped), f"line {line} not reported:\n{p.err}")


def case_listing():
    """Defect 8: every input that could not be read is reported and changes the exit status;
    symlinked job directories are followed once, loops detected."""
    with scratch_dir("listing") as d:
        src, text = raw_file(d)
        tree = os.path.join(d, "tree")
        elsewhere = os.path.join(d, "elsewhere", "job2")
        os.makedirs(os.path.join(tree, "job1"))
        os.makedirs(elsewhere)
        put(os.path.join(tree, "job1", "a.ttl"), text)
        put(os.path.join(elsewhere, "b.ttl"), text.replace(b"data.h5", b"other.h5"))
        os.symlink(elsewhere, os.path.join(tree, "job2"))
        os.symlink(tree, os.path.join(tree, "job1", "up"))  # a loop back to the top
        out = os.path.join(d, "m.nt")
        p = merge(tree, "-o", out, expect=0)
        check(f"prov-merge: {tree}/job1/up: skipped: directory already read (symbolic link loop or second link)"
              in p.err.splitlines(), p.err)
        check("2 files" in p.err, f"the symlinked job directory was not read once:\n{p.err}")
        check(any("other.h5" in str(o) for _, _, o in triples(out)), "job2's provenance is missing")
        # an unreadable subdirectory, seen by a user who cannot list it
        locked = os.path.join(tree, "locked")
        os.mkdir(locked, 0o000)
        merge_copy, env = copy_for_nobody(ARGS.merge, d)
        p = run(as_nobody([merge_copy, tree, "-o", "-"]), env=env, expect=2)
        check(f"prov-merge: {locked}: cannot list directory: Permission denied" in p.err.splitlines(), p.err)


def case_symlink_loop():
    """Defect 9: a self-referential symlink is reported by prov-query and prov-viz, not an abort."""
    with scratch_dir("symlink-loop") as d:
        src, _ = raw_file(d)
        jobdir = os.path.dirname(src)
        loop = os.path.join(jobdir, "self.ttl")
        os.symlink(loop, loop)
        want = f"{loop}: cannot read: Too many levels of symbolic links"
        for argv in ([ARGS.query, "stats", jobdir], [ARGS.viz, "report", "-o", os.path.join(d, "r.html"), jobdir]):
            p = run(argv, expect=2)
            check(want in p.err, f"{argv[0]}: {p.err}")
        p = merge(jobdir, "-o", os.path.join(d, "m.ttl"), expect=2)
        check(f"prov-merge: {want}" in p.err.splitlines(), p.err)


def main():
    global ARGS
    ARGS, case = cases.parse(globals(), ["--merge", "--query", "--viz", "--record"])
    case()
    print(f"inputs.{ARGS.case}: ok")


if __name__ == "__main__":
    main()
