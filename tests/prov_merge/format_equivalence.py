#!/usr/bin/python3
"""The raw-file format changed (docs/format.md); the merged graph must not have. format_workload
records every kind of record the core writes, with fixed times; data/format1/ holds what the
format before this one wrote for the same program (summary and trace level). Both are merged by
prov-merge, and then:

  - every raw file of the new format parses on its own with rdflib and with rapper;
  - the two merged graphs are the same set of triples, once what names the run itself (host, pid,
    thread ids, command line, the run's wall-clock times) is normalised and the summary activity
    IRIs are spelled the new way (<thread>/H5Dwrite-Write-e4-f1 for <thread>/H5Dwrite/Write/e4/f1);
    provio:lastPart (merge bookkeeping, written only where parts were folded) is left out;
  - prov-query answers every question identically on both.

With --compress the workload writes compressed raw files (PROVIO_COMPRESS=zstd, "*.ttl.zst"): each
must decompress to a Turtle document (`zstdcat F | rapper -i turtle -c - BASE`), and the merged
graph must be the same as the one of plain files.

  format_equivalence.py --merge PROV_MERGE --query PROV_QUERY --workload FORMAT_WORKLOAD
                        --fixtures DATA/format1 --work DIR [--compress]
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

import rdflib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import raw_graph  # noqa: E402

PROVIO = "http://www.w3.org/ns/provio#"
ENTITIES = "/provio-equivalence"
RUN_PROPERTIES = ("pid", "tid", "executable", "commandLine", "startTime", "endTime", "host", "lastPart")
OPS = "Create|Open|Read|Write|Flush|Close|Rename|Delete|Modify|Copy|Access"
QUESTIONS = [
    ["programs"],
    ["files"],
    ["objects", ENTITIES + "/data.h5"],
    ["configs"],
    ["metrics"],
    ["best", "--metric", "loss", "--min"],
    ["checkpoints"],
    ["select", "--project", "op,api,entity,file,object,thread,program,rank,start,end,count,bytes,elapsed",
     "--sort", "api,entity,op,start"],
    ["select", "--project", "api,bytes", "--agg", "sum:bytes,count:*", "--group-by", "api", "--sort", "api"],
] + [["stats", "--by", by] for by in ("api", "file", "object", "rank", "thread", "program")] + [
    ["stats", "--nested", "--by", "api"],
    ["lineage", ENTITIES + "/in put.csv", "--down", "--depth", "all"],
    ["lineage", ENTITIES + "/data.h5", "--up", "--depth", "all"],
    ["lineage", ENTITIES + "/data.h5:/run 1/temp.final", "--up", "--depth", "all"],
    ["lineage", ENTITIES + "/out.log.1", "--up", "--depth", "all"],
    ["lineage", ENTITIES + "/model.ckpt", "--up", "--depth", "all"],
]


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None):
    full = {k: v for k, v in os.environ.items() if not k.startswith("PROVIO_")}
    full.update(env or {})
    p = subprocess.run(cmd, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"{cmd} exited {p.returncode}:\n{p.stderr[-2000:]}")
    return p.stdout


def run_values(graph):
    """The strings that name this run: its IRI and the values of its run-specific properties."""
    values = {}
    for prog in graph.subjects(rdflib.RDF.type, rdflib.URIRef(PROVIO + "Program")):
        values[str(prog)] = "RUN"
        for prop in RUN_PROPERTIES:
            for v in graph.objects(prog, rdflib.URIRef(PROVIO + prop)):
                values[str(v)] = prop.upper()
                if prop == "executable":
                    values[os.path.basename(str(v))] = "PROGRAM"
    for th in graph.subjects(rdflib.RDF.type, rdflib.URIRef(PROVIO + "Thread")):
        for v in graph.objects(th, rdflib.URIRef(PROVIO + "tid")):
            values[str(v)] = "TID"
    return values


def normalise(text, values):
    for value in sorted(values, key=len, reverse=True):
        if value.isdigit():  # a pid or tid: a whole number, never the digits inside another one
            text = re.sub(r"(?<![0-9])" + value + r"(?![0-9])", values[value], text)
        else:
            text = text.replace(value, values[value])
    # summary activity IRIs of the format before: <thread>/<api>/<Op>/e<n>[-<m>][/f<flags>]
    text = re.sub(r"(RUN/thread/\d+)/([A-Za-z0-9_%.~-]+)/(" + OPS + r")/e(\d+(?:-\d+)?)(?:/f(\d+))?",
                  lambda m: f"{m[1]}/{m[2]}-{m[3]}-e{m[4]}" + (f"-f{m[5]}" if m[5] else ""), text)
    # wall-clock times of the run (workflow records); the recorded I/O has fixed times in 2020
    return re.sub(r"20[2-9][1-9]-\d\d-\d\dT[0-9:.]+(Z|[+]00:00)", "TIME", text)


def merged(raw_dir, out):
    run([ARGS.merge, "-q", "-o", out, raw_dir])
    g = rdflib.Graph()
    g.parse(out, format="turtle")
    values = run_values(g)
    # provio:lastPart, and provio:workingDirectory and the access sizes (newer than the fixtures of
    # the format before)
    skipped = {rdflib.URIRef(PROVIO + "lastPart"), rdflib.URIRef(PROVIO + "workingDirectory")}
    skipped |= {rdflib.URIRef(PROVIO + name) for name in raw_graph.SIZES}
    lines = {normalise(f"{s.n3()} {p.n3()} {o.n3()}", values) for s, p, o in g if p not in skipped}
    return lines, values


def answers(merged_file, values):
    out = []
    for q in QUESTIONS:
        text = run([ARGS.query, *q, "-f", "tsv", merged_file])
        out.append((q, normalise(text, values)))
    return out


def check_raw_files(raw_dir):
    files = sorted(glob.glob(os.path.join(raw_dir, "*.ttl.zst" if ARGS.compress else "*.ttl")))
    if not files or glob.glob(os.path.join(raw_dir, "*.ttl" if ARGS.compress else "*.ttl.zst")):
        fail("no raw files, or files of the other kind, in " + raw_dir)
    for f in files:
        if ARGS.compress:
            text = subprocess.run(["zstdcat", f], stdout=subprocess.PIPE, check=True).stdout
            rapper = subprocess.run(f"zstdcat '{f}' | rapper -q -i turtle -c - file:///", shell=True,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        else:
            with open(f, "rb") as fh:
                text = fh.read()
            rapper = subprocess.run(["rapper", "-q", "-i", "turtle", "-c", "file://" + os.path.abspath(f)],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            rdflib.Graph().parse(data=text.decode("utf-8"), format="turtle")
        except Exception as e:  # noqa: BLE001
            fail(f"rdflib cannot read {f}: {e}")
        if rapper.returncode != 0:
            fail(f"rapper cannot read {f}: {rapper.stderr}")


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    for opt in ("--merge", "--query", "--workload", "--fixtures", "--work"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--compress", action="store_true")
    ARGS = ap.parse_args()
    shutil.rmtree(ARGS.work, ignore_errors=True)
    os.makedirs(ARGS.work)
    for level in ("summary", "trace"):
        raw = os.path.join(ARGS.work, "raw-" + level)
        run([ARGS.workload, ENTITIES],
            env={"PROVIO_LEVEL": level, "PROVIO_DIR": raw, "PROVIO_COMPRESS": "zstd" if ARGS.compress else "none"})
        check_raw_files(raw)
        old_file = os.path.join(ARGS.work, f"before-{level}.ttl")
        new_file = os.path.join(ARGS.work, f"now-{level}.ttl")
        before, old_values = merged(os.path.join(ARGS.fixtures, level), old_file)
        now, new_values = merged(raw, new_file)
        if before != now:
            diff = [f"- {t}" for t in sorted(before - now)] + [f"+ {t}" for t in sorted(now - before)]
            fail(f"{level}: merged graphs differ ({len(before)} vs {len(now)} triples):\n" + "\n".join(diff[:40]))
        for (q, a), (_, b) in zip(answers(old_file, old_values), answers(new_file, new_values)):
            if a != b:
                fail(f"{level}: prov-query {' '.join(q)} answers differently:\nbefore:\n{a}\nnow:\n{b}")
            if len(a.strip().splitlines()) < 2:
                fail(f"{level}: prov-query {' '.join(q)} answered nothing:\n{a}")
        print(f"{level}: {len(now)} triples, {len(QUESTIONS)} questions answered identically")


if __name__ == "__main__":
    main()
