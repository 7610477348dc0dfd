"""posix_spawnp: the spawned program is a run whose parent is the spawner; its reads are its own.
    test_spawn.py <preload> <spawn binary>"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import check, select  # noqa: E402

preload, binary = sys.argv[1:3]
work = tempfile.mkdtemp(prefix="provio-posix-spawn-")
data = os.path.join(work, "in.txt")
out = provlib.run_traced([binary, data], os.path.join(work, "prov"), preload, stdout=subprocess.PIPE).stdout
check(out == b"spawned\n", "cat's output changed: %r" % out)
g = provlib.load(os.path.join(work, "prov"))
runs = provlib.runs(g)
acts = provlib.activities(g)
spawner = [r for r, v in runs.items() if v["executable"] == os.path.realpath(binary)]
cat = [r for r, v in runs.items() if v["executable"] == os.path.realpath(shutil.which("cat"))]
check(len(spawner) == 1 and len(cat) == 2, runs)
spawned = [r for r in cat if runs[r]["parent"] == spawner[0]]
check(len(spawned) == 1, "cat's parents: %s" % [runs[r]["parent"] for r in cat])
# system(): glibc spawns /bin/sh internally (no wrapper sees it); sh names the spawner as its
# parent through the environment the library set up at start, and execs cat
via_sh = [r for r in cat if r not in spawned][0]
chain = [via_sh]
while runs[chain[-1]]["parent"] in runs and len(chain) < 5:
    chain.append(runs[chain[-1]]["parent"])
check(chain[-1] == spawner[0], "system(): cat's ancestry %s" % chain)
check(any(runs[r]["executable"] == os.path.realpath("/bin/sh") for r in chain), "no /bin/sh in %s" % chain)
cat = spawned
sp = select(acts, api="posix_spawn")
check(len(sp) == 1 and sp[0].run == spawner[0] and sp[0].path() == os.fsencode(os.path.realpath(shutil.which("cat"))), sp)
w = select(acts, path=data, cls="Write")
r = select(acts, path=data, cls="Read")
check(len(w) == 1 and w[0].run == spawner[0] and w[0].bytes == 8, w)
check(sum(a.bytes for a in r if a.run == cat[0]) == 8 and sum(a.bytes for a in r if a.run == via_sh) == 8, r)
shutil.rmtree(work)
print("ok")
