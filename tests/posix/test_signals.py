"""Signal handlers doing I/O during traced I/O: the program's results are unchanged, the main
loop's calls are recorded exactly, handler writes at most once each.
    test_signals.py <preload> <signals binary>"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import check, select  # noqa: E402

preload, binary = sys.argv[1:3]
work = tempfile.mkdtemp(prefix="provio-posix-signals-")
out = provlib.run_traced([binary, work], os.path.join(work, "prov"), preload, stdout=subprocess.PIPE, text=True,
                         timeout=60).stdout
handled = int(out.strip())
check(os.path.getsize(os.path.join(work, "main.dat")) == 20000, "main.dat size")
check(os.path.getsize(os.path.join(work, "handler.log")) == handled, "handler.log size vs %d runs" % handled)
acts = provlib.activities(provlib.load(os.path.join(work, "prov")))
w = select(acts, path=os.path.join(work, "main.dat"), cls="Write")
r = select(acts, path=os.path.join(work, "main.dat"), cls="Read")
check(len(w) == 1 and (w[0].count, w[0].bytes) == (20000, 20000), w)
check(len(r) == 1 and (r[0].count, r[0].bytes) == (20000, 20000), r)
hw = select(acts, path=os.path.join(work, "handler.log"), cls="Write")
recorded = sum(a.bytes for a in hw)
check(recorded <= handled and all(a.count == a.bytes for a in hw), "handler writes %d recorded, %d made" % (recorded, handled))
shutil.rmtree(work)
print("ok (%d handler runs, %d recorded)" % (handled, recorded))
