#!/usr/bin/python3
"""Checks prov-query's answers about the h5bench-style runs (run_h5bench.sh) against what
vpic_write and bdcats_read did: 2 ranks x PARTICLES x 8 properties x STEPS, 4 bytes a value.

usage: check_h5bench.py WORKDIR PARTICLES STEPS
"""
import csv
import os
import sys

PROPERTIES = ["x", "y", "z", "id1", "id2", "px", "py", "pz"]


def rows(work, name):
    with open(os.path.join(work, name)) as f:
        return list(csv.DictReader(f))


def main():
    work, particles, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    slab = particles * 4  # bytes one rank moves per dataset
    by_object = {r["object"].split(":", 1)[-1]: r for r in rows(work, "by_object.csv") if ":" in r["object"]}
    datasets = {f"/Timestep_{t}/{p}" for t in range(steps) for p in PROPERTIES}
    assert set(by_object) >= datasets, sorted(datasets - set(by_object))
    for d in datasets:  # written by 2 ranks, read by 2 ranks
        assert int(by_object[d]["bytes"]) == 4 * slab, (d, by_object[d])
    per_program = slab * len(PROPERTIES) * steps
    programs = rows(work, "by_program.csv")
    names = sorted(r["program"].split(" ")[0] for r in programs)
    assert names == ["bdcats_read"] * 2 + ["vpic_write"] * 2, names
    for r in programs:
        assert int(r["bytes"]) == per_program, r
    ranks = {r["rank"]: int(r["bytes"]) for r in rows(work, "by_rank.csv")}
    assert ranks == {"0": 2 * per_program, "1": 2 * per_program}, ranks
    up = {r["name"].split(" ")[0] for r in rows(work, "up.csv") if r["kind"] == "program"}
    down = {r["name"].split(" ")[0] for r in rows(work, "down.csv") if r["kind"] == "program"}
    assert up == {"vpic_write"} and "bdcats_read" in down, (up, down)
    print(f"ok: h5bench example: {len(datasets)} datasets, 4 programs, 2 ranks, lineage write -> read")


if __name__ == "__main__":
    main()
