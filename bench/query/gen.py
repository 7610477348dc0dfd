#!/usr/bin/python3
"""Writes a synthetic merged provio graph (docs/format.md, "Merged graphs") for prov-query's
benchmark: CHAINS independent pipelines of LENGTH program executions each; program k of a chain
reads every dataset of file k and writes every dataset of file k+1, so the last file of a chain
has lineage LENGTH programs deep. Each activity carries folded measures.

  gen.py OUT.ttl --triples N [--length L] [--datasets D] [--first-chain C]

Prints the chain count and the IRI of the last file of the first chain (the lineage benchmark's
root). --first-chain numbers the chains from C, so several outputs (jobs) never share a node.
"""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--triples", type=int, default=1_000_000)
ap.add_argument("--length", type=int, default=20)
ap.add_argument("--datasets", type=int, default=20)
ap.add_argument("--first-chain", type=int, default=0)
a = ap.parse_args()

HEAD = """@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix provio: <http://www.w3.org/ns/provio#> .
"""


def program_lines(chain, k, D):
    p = f"<urn:provio:run:node{chain % 64}:{chain * 1000 + k}:1700000000{k:06d}>"
    t = p[:-1] + "/thread/0>"
    out = [f"{p} rdf:type prov:Agent .", f"{p} rdf:type provio:Program .",
           f'{p} provio:executable "/opt/pipeline/stage{k}" .', f'{p} provio:pid "{chain * 1000 + k}"^^xsd:unsignedLong .',
           f'{p} provio:host "node{chain % 64}" .', f'{p} provio:rank "{chain % 256}" .',
           f"{t} rdf:type prov:Agent .", f"{t} rdf:type provio:Thread .", f"{t} prov:actedOnBehalfOf {p} ."]
    fin, fout = f"<file:///scratch/c{chain}/f{k}.h5>", f"<file:///scratch/c{chain}/f{k + 1}.h5>"
    if k == 0:
        out += [f"{fin} rdf:type prov:Entity .", f"{fin} rdf:type provio:File .", f'{fin} provio:path "/scratch/c{chain}/f{k}.h5" .']
    out += [f"{fout} rdf:type prov:Entity .", f"{fout} rdf:type provio:File .", f'{fout} provio:path "/scratch/c{chain}/f{k + 1}.h5" .']
    n = 0

    def activity(cls, api, entity, gen, nbytes):
        nonlocal n
        n += 1
        act = t[:-1] + f"/{api}/{cls}/e{n}>"
        rel = {"Read": "wasReadBy", "Write": "wasWrittenBy", "Open": "wasOpenedBy", "Create": "wasCreatedBy", "Close": "wasClosedBy"}[cls]
        lines = [f"{act} rdf:type prov:Activity .", f"{act} rdf:type provio:{cls} .", f'{act} provio:api "{api}" .',
                 f"{act} prov:wasAssociatedWith {t} .", f'{act} provio:count "{n % 7 + 1}"^^xsd:unsignedLong .',
                 f'{act} provio:bytes "{nbytes}"^^xsd:unsignedLong .', f'{act} provio:elapsed "0.000{n % 1000:03d}100"^^xsd:double .',
                 f'{act} prov:startedAtTime "2024-01-01T00:{k % 60:02d}:00.000000Z"^^xsd:dateTime .',
                 f'{act} prov:endedAtTime "2024-01-01T00:{k % 60:02d}:01.000000Z"^^xsd:dateTime .',
                 f"{entity} provio:{rel} {act} ."]
        lines.append(f"{entity} prov:wasGeneratedBy {act} ." if gen else f"{act} prov:used {entity} .")
        return lines

    out += activity("Open", "H5Fopen", fin, False, 0)
    out += activity("Create", "H5Fcreate", fout, True, 0)
    for d in range(D):
        din, dout = fin[:-1] + f"#/g/d{d}>", fout[:-1] + f"#/g/d{d}>"
        if k == 0:
            out += [f"{din} rdf:type prov:Entity .", f"{din} rdf:type provio:Dataset .", f'{din} provio:objectPath "/g/d{d}" .', f"{din} provio:inFile {fin} ."]
        out += [f"{dout} rdf:type prov:Entity .", f"{dout} rdf:type provio:Dataset .", f'{dout} provio:objectPath "/g/d{d}" .', f"{dout} provio:inFile {fout} ."]
        out += activity("Read", "H5Dread", din, False, 4096 * (d + 1))
        out += activity("Write", "H5Dwrite", dout, True, 1024 * (d + 1))
    out += activity("Close", "H5Fclose", fin, False, 0)
    out += activity("Close", "H5Fclose", fout, False, 0)
    return out


per_program = len(program_lines(0, 1, a.datasets))
chains = max(1, a.triples // (per_program * a.length))
written = 0
with open(a.out, "w") as f:
    f.write(HEAD)
    for c in range(a.first_chain, a.first_chain + chains):
        for k in range(a.length):
            lines = program_lines(c, k, a.datasets)
            written += len(lines)
            f.write("\n".join(lines))
            f.write("\n")
print(chains, written, f"file:///scratch/c{a.first_chain}/f{a.length}.h5")
