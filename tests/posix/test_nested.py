"""POSIX calls inside an HDF5 VOL callback carry provio:nested true and are separate activities
from the application's own calls, so I/O statistics can leave them out (no double counting).
    test_nested.py <preload> <nested binary>"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import check, select  # noqa: E402

preload, binary = sys.argv[1:3]
work = tempfile.mkdtemp(prefix="provio-posix-nested-")
path = os.path.join(work, "f.h5")
provlib.run_traced([binary, path], os.path.join(work, "prov"), preload)
acts = provlib.activities(provlib.load(os.path.join(work, "prov")))
writes = {(a.nested, a.count, a.bytes) for a in select(acts, path=path, cls="Write")}
check(writes == {(False, 1, 4), (True, 2, 24)}, "writes: %s" % writes)
check(all(not a.nested for a in select(acts, path=path) if a.cls != "Write"), "open/close marked nested")
shutil.rmtree(work)
print("ok")
