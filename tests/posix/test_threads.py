"""8 threads each writing their own file, then a fork child: every event attributed to the right
thread agent and program execution, with exact counts and bytes.
    test_threads.py <preload> <threads binary>"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import PIO, PROV, RDF, check, select  # noqa: E402

preload, binary = sys.argv[1:3]
work = tempfile.mkdtemp(prefix="provio-posix-threads-")
prov = os.path.join(work, "prov")
data = os.path.join(work, "data")
os.mkdir(data)
provlib.run_traced([binary, data], prov, preload)

g = provlib.load(prov)
runs = provlib.runs(g)
acts = provlib.activities(g)
parent = [r for r, v in runs.items() if v["executable"] == os.path.realpath(binary) and v["parent"] is None]
check(len(parent) == 1, parent)
parent = parent[0]
child = [r for r, v in runs.items() if v["parent"] == parent]
check(len(child) == 1, child)
child = child[0]
check(runs[child]["pid"] != runs[parent]["pid"], "fork child has the parent's pid")

writers = set()
for i in range(8):
    path = os.path.join(data, "t%d.dat" % i)
    w = select(acts, path=path, cls="Write")
    check(len(w) == 1, "t%d.dat: %s" % (i, w))
    w = w[0]
    check(w.count == 1000 + i and w.bytes == 7 * (1000 + i), "t%d.dat: %s" % (i, w))
    check(w.run == parent, "t%d.dat written by %s" % (i, w.run))
    # the same thread created, wrote and closed it
    for cls in ("Create", "Close"):
        other = select(acts, path=path, cls=cls)
        check(len(other) == 1 and other[0].thread == w.thread, "t%d.dat %s by another thread" % (i, cls))
    check((w.thread, RDF.type, PIO.Thread) in g and g.value(w.thread, PROV.actedOnBehalfOf) == parent, w.thread)
    writers.add(w.thread)
check(len(writers) == 8, "8 files written by %d distinct threads" % len(writers))
check(len(set(g.subjects(RDF.type, PIO.Thread))) == 10, "threads: 8 workers + main + the child's")

shared = select(acts, path=os.path.join(data, "shared.dat"), cls="Write")
by = {a.run: (a.count, a.bytes) for a in shared}
check(by == {parent: (1, 7), child: (1, 6)}, "shared.dat writes: %s" % by)
ch = select(acts, path=os.path.join(data, "child.txt"))
check({(a.cls, a.api, a.count, a.bytes) for a in ch} ==
      {("Create", "fopen", 1, 0), ("Write", "fprintf", 1, 9), ("Close", "fclose", 1, 0)}, ch)
check(all(a.run == child for a in ch), "child.txt attributed to the parent")
shutil.rmtree(work)
print("ok")
