#!/usr/bin/python3
"""docs/provio.ttl declares every provio: term the writers and tools use, and parses with rdflib.

usage: vocabulary_test.py SOURCE_ROOT
Terms are collected from string literals ("provio:Term…) in src/, tools/, include/ and python/,
and from the raw files' short names (":term") in src/model/raw_terms.h, their one spelling: a
short name written in a string literal anywhere else in src/ fails the test.
"""
import pathlib, re, sys
import rdflib

root = pathlib.Path(sys.argv[1])
PROVIO = "http://www.w3.org/ns/provio#"
RDF_TYPE = rdflib.RDF.type
g = rdflib.Graph()
g.parse(root / "docs" / "provio.ttl", format="turtle")
declared = {str(s)[len(PROVIO):] for s, _, _ in g.triples((None, RDF_TYPE, None)) if str(s).startswith(PROVIO)}
commented = {str(s)[len(PROVIO):] for s, _, _ in g.triples((None, rdflib.RDFS.comment, None)) if str(s).startswith(PROVIO)}

used = {}
for folder in ("src", "tools", "include", "python"):
    for path in (root / folder).rglob("*"):
        if path.suffix not in (".cc", ".h", ".hpp", ".c", ".py") or not path.is_file():
            continue
        for m in re.finditer(r'["\'](?:[^"\'\n]*\s)?provio:([A-Za-z][A-Za-z0-9_]*)', path.read_text(errors="replace")):
            used.setdefault(m.group(1), str(path.relative_to(root)))

RAW_TERMS = pathlib.Path("src/model/raw_terms.h")
SHORT = re.compile(r'"(?:[^"\n]*\s)?:([A-Za-z][A-Za-z0-9_]*)')
# A constant (= ":name";) or an element of an array of them (":name",).
short = re.findall(r'(?:= |^\s+)":([A-Za-z][A-Za-z0-9_]*)"[;,]', (root / RAW_TERMS).read_text(), re.M)
if len(short) < 15:
    sys.exit(f"only {len(short)} short names found in {RAW_TERMS}: the scan is broken")
for t in short:
    used.setdefault(t, str(RAW_TERMS))
stray = []
for path in (root / "src").rglob("*"):
    if path.suffix in (".cc", ".h") and path.is_file() and path.relative_to(root) != RAW_TERMS:
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            line = line.split("//")[0] if line.lstrip().startswith("//") or " // " in line else line
            stray += [f"{path.relative_to(root)}:{n}: :{m}" for m in SHORT.findall(line)]
if stray:
    sys.exit("raw short names spelled outside src/model/raw_terms.h:\n" + "\n".join(stray))

missing = {t: f for t, f in used.items() if t not in declared}
uncommented = sorted(declared - commented)
if missing:
    sys.exit("terms used but not declared in docs/provio.ttl: " +
             ", ".join(f"provio:{t} ({f})" for t, f in sorted(missing.items())))
if uncommented:
    sys.exit("declared without rdfs:comment: " + ", ".join(uncommented))
if len(used) < 40:
    sys.exit(f"only {len(used)} terms found in the sources: the scan is broken")
print(f"ok: {len(used)} terms used, {len(declared)} declared")
