#!/usr/bin/python3
"""Checks the per-thread files of a record_stress run against its truth file.

usage: check_events.py DIR TRUTH --files N [--parser rdflib|rapper] [--killed TRACE_EVENTS]

Every event must be accounted for exactly once: per program execution (provio:pid), the sum of
provio:count over summary parts and trace activities equals what the process says it recorded.
With --killed the process was SIGKILLed: instead, per thread the offsets that reached the disk
must be exactly 0..k-1 with k at least one trace buffer: a contiguous prefix, so only the tail
(the unflushed buffer, and the part of a flush cut by the kill) is missing, and the complete lines
of a file cut mid-write still parse.
"""
import argparse, collections, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402

PROVIO = "http://www.w3.org/ns/provio#"
PROV = "http://www.w3.org/ns/prov#"

def triples_rdflib(path):
    import rdflib
    g = rdflib.Graph()
    g.parse(path, format="turtle")
    for s, p, o in g:
        yield str(s), str(p), str(o)

NT = re.compile(r'^<([^>]*)> <([^>]*)> (?:<([^>]*)>|"((?:[^"\\]|\\.)*)"(?:\^\^<[^>]*>)?)\s*\.$')

def triples_rapper(path):
    out = subprocess.run(["rapper", "-q", "-i", "turtle", "-o", "ntriples", path],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = NT.match(line)
        if not m:
            raise SystemExit(f"unparsed N-Triples line from rapper: {line[:200]}")
        yield m.group(1), m.group(2), m.group(3) if m.group(3) is not None else m.group(4)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir"); ap.add_argument("truth")
    ap.add_argument("--files", type=int, required=True)
    ap.add_argument("--parser", default="rdflib")
    ap.add_argument("--killed", type=int, default=0)
    a = ap.parse_args()
    files = zstd_raw.raw_files(a.dir)
    if len(files) != a.files:
        sys.exit(f"expected {a.files} files, found {len(files)}: {files}")
    counts = collections.Counter()   # pid -> events
    offsets = collections.defaultdict(list)  # file -> offsets
    text_dir = tempfile.mkdtemp(prefix="provio-check-")
    for raw in files:
        data = zstd_raw.read_bytes(raw)  # compressed: the frames written whole
        if a.killed:  # the process died inside a write: keep the complete lines
            data = data[:data.rfind(b"\n") + 1]
        f = os.path.join(text_dir, os.path.basename(raw) + ".ttl")  # the Turtle both parsers read
        with open(f, "wb") as fh:
            fh.write(data)
        if not a.killed:
            # every file must also parse with rapper, independently of the parser used below
            subprocess.run(["rapper", "-q", "-i", "turtle", "-c", f], check=True)
        reader = triples_rdflib if a.parser == "rdflib" else triples_rapper
        pid_of_file = None
        count_of = {}
        thread_of = {}
        prog_pid = {}
        acted = {}
        for s, p, o in reader(f):
            if p == PROVIO + "count":
                count_of[s] = int(o)
            elif p == PROVIO + "pid":
                prog_pid[s] = int(o)
            elif p == PROVIO + "offset":
                offsets[raw].append(int(o))
        if len(prog_pid) != 1:
            sys.exit(f"{raw}: expected one program execution, found {prog_pid}")
        pid = next(iter(prog_pid.values()))
        counts[pid] += sum(count_of.values())
    shutil.rmtree(text_dir)
    if a.killed:
        for f, offs in offsets.items():
            offs.sort()
            k = len(offs)
            if offs != list(range(k)):
                sys.exit(f"{f}: offsets on disk are not 0..{k-1}")
            if k < a.killed:
                sys.exit(f"{f}: only {k} events on disk, less than one buffer ({a.killed})")
        print(f"ok: {len(files)} files, {sum(len(o) for o in offsets.values())} events flushed before the kill")
        return
    truth = collections.Counter()
    with open(a.truth) as fh:
        for line in fh:
            pid, n = line.split()
            truth[int(pid)] += int(n)
    if counts != truth:
        sys.exit(f"recorded events per process {dict(counts)} != truth {dict(truth)}")
    print(f"ok: {len(files)} files, {sum(counts.values())} events in {len(counts)} processes")

main()
