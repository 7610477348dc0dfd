#!/usr/bin/python3
"""Worker processes that end with os._exit keep their records and are not marked incomplete
(issue 35: each PyTorch DataLoader worker was marked no-end-time). fork_exit.py forks workers with
multiprocessing, each reads an HDF5 dataset through the connector and a text file, and ends as
multiprocessing ends every forked child, with os._exit. Run under the VOL connector alone and
under the connector with the preload library; after prov-merge each worker is a program whose
parent is the main program, with its end time, no provio:incomplete mark, and its reads.

    fork_exit_test.py --plugin-dir D --preload LIB --h5io LIB --prov-merge EXE --work DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

import rdflib

PROVIO = rdflib.Namespace("http://www.w3.org/ns/provio#")
PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
WORKERS = 3


def run(a, name, preload):
    work = os.path.join(a.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "HDF5_")) and k != "LD_PRELOAD"}
    env.update(HDF5_PLUGIN_PATH=a.plugin_dir, HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}",
               PROVIO_DIR=os.path.join(work, "prov"))
    if preload:
        env["LD_PRELOAD"] = a.preload
    program = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fork_exit.py")
    subprocess.run([sys.executable, program, a.h5io, work, str(WORKERS)], env=env, check=True)
    merged = os.path.join(work, "merged.ttl")
    subprocess.run([a.prov_merge, "-q", os.path.join(work, "prov"), "-o", merged], check=True)
    g = rdflib.Graph()
    g.parse(merged, format="turtle")
    return work, g


def check(name, work, g, preload):
    failures = []
    programs = set(g.subjects(rdflib.RDF.type, PROVIO.Program))
    workers = {p for p in programs if g.value(p, PROVIO.parentRun) in programs}
    if len(workers) != WORKERS:
        failures.append(f"{len(workers)} worker programs, expected {WORKERS} (programs: {len(programs)})")
    h5_object = rdflib.URIRef("file://" + os.path.realpath(os.path.join(work, "data.h5")) + "#/x")
    text = rdflib.URIRef("file://" + os.path.realpath(os.path.join(work, "data.txt")))
    for w in sorted(workers):
        if g.value(w, PROVIO.endTime) is None:
            failures.append(f"{w}: no provio:endTime")
        marks = [str(g.value(m, PROVIO.reason)) for m in g.objects(w, PROVIO.incomplete)]
        if marks:
            failures.append(f"{w}: marked incomplete {marks}")
        threads = set(g.subjects(PROV.actedOnBehalfOf, w))
        used = {o for t in threads for act in g.subjects(PROV.wasAssociatedWith, t)
                if (act, rdflib.RDF.type, PROVIO.Read) in g for o in g.objects(act, PROV.used)}
        # A read binds to a version of the file: the entity itself or a specialisation of it.
        used |= {g.value(v, PROV.specializationOf) for v in list(used)}
        wanted = [h5_object] + ([text] if preload else [])
        for e in wanted:
            if e not in used:
                failures.append(f"{w}: no Read of {e} (reads: {sorted(map(str, used))})")
    for f in failures:
        print(f"FAIL ({name}): {f}", file=sys.stderr)
    return not failures


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--plugin-dir", "--preload", "--h5io", "--prov-merge", "--work"):
        ap.add_argument(opt, required=True)
    a = ap.parse_args()
    ok = True
    for name, preload in (("vol", False), ("vol+preload", True)):
        work, g = run(a, name.replace("+", "_"), preload)
        ok &= check(name, work, g, preload)
    if not ok:
        sys.exit(1)
    print(f"ok: {WORKERS} workers ending with os._exit keep their reads and end times, "
          "under the VOL connector alone and with the preload library")


if __name__ == "__main__":
    main()
