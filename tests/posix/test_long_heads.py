"""Trace level with statements of ~900 bytes beside short ones, so that the trace writer's window
holds two of them: every write is one traced activity, each named once (t:<thread>\\/c<n>,
counted up as text), and each file gets its share.
    test_long_heads.py <preload> <long_heads binary>"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import check, select  # noqa: E402

WRITES = 1500  # per pattern; trace buffers of 256 events: several hand-offs

preload, binary = sys.argv[1:3]
work = tempfile.mkdtemp(prefix="provio-posix-long-heads-")
provlib.run_at_trace_level([binary, work, str(WRITES)], os.path.join(work, "prov"), preload, 256)
writes = select(provlib.activities(provlib.load(os.path.join(work, "prov"))), under=work, cls="Write")
check(len(writes) == 2 * WRITES and all(w.count == 1 and w.bytes == 1 for w in writes),
      "%d traced writes of %d" % (len(writes), 2 * WRITES))
check(len({w.iri for w in writes}) == len(writes), "call names repeated")
per_file = sorted(len([w for w in writes if w.path() == p]) for p in {w.path() for w in writes})
check(per_file == [2 * WRITES // 3] * 3, "writes per file: %s" % per_file)
check(max(len(p) for p in {w.path() for w in writes}) > 250, "no name long enough")
shutil.rmtree(work)
print("ok")
