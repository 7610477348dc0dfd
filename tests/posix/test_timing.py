"""Durations and start times of recorded calls are right once the shim times with the CPU's
counter: a read that blocks for at least 300 ms is recorded as such, inside the run's lifetime.
    test_timing.py <preload> <timing binary>"""
import datetime
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import PIO, PROV, check, select  # noqa: E402

preload, binary = sys.argv[1:3]
work = tempfile.mkdtemp(prefix="provio-posix-timing-")
before = datetime.datetime.now(datetime.timezone.utc)
provlib.run_traced([binary, work], os.path.join(work, "prov"), preload)
after = datetime.datetime.now(datetime.timezone.utc)
g = provlib.load(os.path.join(work, "prov"))
acts = provlib.activities(g)
rd = select(acts, path=os.path.join(work, "fifo"), cls="Read")
check(len(rd) == 1 and rd[0].count == 1 and rd[0].bytes == 1, rd)
part = rd[0].iri  # one flush: the activity carries its measures (docs/format.md)
elapsed = float(g.value(part, PIO.elapsed))
check(0.29 <= elapsed <= 30, "blocking read recorded as %.6f s" % elapsed)
started = g.value(part, PROV.startedAtTime).toPython()
ended = g.value(part, PROV.endedAtTime).toPython()
check(before <= started <= ended <= after, "read at %s..%s, run %s..%s" % (started, ended, before, after))
check(abs((ended - started).total_seconds() - elapsed) < 0.001, "endedAtTime - startedAtTime != elapsed")
w = select(acts, path=os.path.join(work, "busy.dat"), cls="Write")
check(len(w) == 1 and w[0].count == w[0].bytes and w[0].count > 0, w)
wpart = w[0].iri
check(0 < float(g.value(wpart, PIO.elapsed)) < 0.2, "100 ms of writes took %s s" % g.value(wpart, PIO.elapsed))
shutil.rmtree(work)
print("ok")
