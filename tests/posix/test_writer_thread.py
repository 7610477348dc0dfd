"""Trace level's background writer lives only while it has buffers to write: a single-threaded
program is one thread again after its buffers were handed off, and no call is lost across the
writer's restarts (every write is one traced activity).
    test_writer_thread.py <preload> <writer_thread binary>"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import check, select  # noqa: E402

WRITES = 2000  # 7 full buffers of 256 events and a part

preload, binary = sys.argv[1:3]
work = tempfile.mkdtemp(prefix="provio-posix-writer-")
provlib.run_at_trace_level([binary, work, str(WRITES)], os.path.join(work, "prov"), preload, 256)
writes = select(provlib.activities(provlib.load(os.path.join(work, "prov"))),
                path=os.path.join(work, "out.dat"), cls="Write")
check(len(writes) == WRITES and all(w.count == 1 and w.bytes == 1 for w in writes),
      "%d traced writes of %d" % (len(writes), WRITES))
shutil.rmtree(work)
print("ok")
