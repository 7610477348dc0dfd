#!/usr/bin/python3
"""A Turtle document larger than 2 GiB (a graph prov-merge itself writes as Turtle at a campaign's
size): raptor's Turtle parser holds a whole document in a buffer indexed by an int and crashed
prov-merge past 2 GiB (SIGSEGV). prov-merge now keeps every statement of the first 2 GiB less a
margin, names the line where it stopped and why, and exits 2, as for any damaged input.

    big_turtle_test.py --merge PROV_MERGE --work DIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import harness  # noqa: E402

args = harness.options("--merge", "--work")
work = harness.fresh_dir(args.work)
big = os.path.join(work, "big.ttl")
literal = "x" * 10_000
statements = 230_000  # 2.3 GB
with open(big, "w") as f:
    f.write("@prefix p: <urn:p#> .\n")
    for first in range(0, statements, 1000):
        f.write("".join(f'<urn:s{i}> p:v "{literal}" .\n' for i in range(first, first + 1000)))
try:
    p = harness.run([args.merge, "-j", "1", "-f", "ntriples", "-o", os.devnull, big], timeout=900)
finally:
    os.remove(big)
checks = harness.Checks()
checks(p.returncode == 2, f"exit status {p.returncode}, expected 2 (input damaged); stderr:\n{p.stderr[-2000:]}")
m = re.search(r"big\.ttl:(\d+): Turtle document larger than 2 GiB", p.stderr)
checks(m is not None, "no message naming the line where the document was cut:\n" + p.stderr[-2000:])
n = re.search(r"(\d+) triples in", p.stderr)
checks(n is not None, "no triple count on stderr")
if m and n:
    line, kept = int(m.group(1)), int(n.group(1))
    # Line 1 is the prefix, lines 2 … line-1 the statements kept, whole and in order.
    checks(kept == line - 2, f"{kept} triples kept, but the document was cut at line {line}")
    checks(kept * (len(literal) + 30) > 2_000_000_000, f"only {kept} statements kept: less than 2 GB")
checks.finish("ok")
