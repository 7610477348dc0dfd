"""prov-query remake on the DASSA pipeline (issue 13): acquire (2 ranks) → W.h5, decimate
(2 ranks) W.h5 → D.h5, HDF5's h5dump of D.h5's data → dec.txt, under the VOL connector and the
preload library. `prov-query remake dec.txt` is a shell script; run untraced in a fresh directory
it reproduces the files: h5diff-identical for HDF5, byte-identical for dec.txt. The script names
the steps in dependency order with their rank counts, and says when the file changed since.

    remake_test.py --prov-query Q --preload LIB --plugins DIR --mpiexec M --acquire A
                   --decimate D --h5diff H --h5dump H --work DIR"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prov_query"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineage_env  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-query", "preload", "plugins", "mpiexec", "acquire", "decimate", "h5diff", "h5dump", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()

work, prov = lineage_env.fresh_work(args.work)
run_dir = os.path.join(work, "run")
os.makedirs(run_dir)
env = lineage_env.clean_env(mpi=True)
traced = lineage_env.traced_ranks(args.preload, prov, args.plugins)
subprocess.run([args.mpiexec, "-np", "2", *traced, args.acquire, "W.h5", "16", "64"], cwd=run_dir, env=env,
               check=True, capture_output=True, timeout=120)
subprocess.run([args.mpiexec, "-np", "2", *traced, args.decimate, "W.h5", "D.h5", "4"], cwd=run_dir, env=env,
               check=True, capture_output=True, timeout=120)
subprocess.run([args.h5dump, "-d", "/DAS/decimated", "-o", "dec.txt", "-y", "-w", "0", "D.h5"], cwd=run_dir,
               env=dict(env, LD_PRELOAD=args.preload, PROVIO_DIR=prov, HDF5_VOL_CONNECTOR="provio",
                        HDF5_PLUGIN_PATH=args.plugins), check=True, timeout=60, capture_output=True)

pq = oracle.Tool(args.prov_query)
script = pq.run("remake", "dec.txt", prov, cwd=run_dir).stdout
print(script)
steps = [line for line in script.splitlines() if line and not line.startswith(("#", "cd ", "set ", "REMAKE_DIR", "export"))]
check(len(steps) == 3, f"three commands: {steps}")
check(steps[0].startswith("${MPIEXEC:-mpiexec} -n 2 ") and "acquire W.h5" in steps[0], f"acquire first: {steps}")
check(len(steps) > 1 and steps[1].startswith("${MPIEXEC:-mpiexec} -n 2 ") and "decimate W.h5 D.h5 4" in steps[1],
      f"then decimate: {steps}")
check(len(steps) > 2 and "h5dump -d /DAS/decimated -o dec.txt" in steps[2], f"then h5dump: {steps}")
check("reads W.h5" not in script or "made by step 1" in script, "W.h5 is made by step 1")
check("Note:" not in script, "dec.txt is its recorded version")

fresh = os.path.join(work, "fresh")
os.makedirs(fresh)
script_path = os.path.join(work, "remake.sh")
with open(script_path, "w") as f:
    f.write(script)
r = subprocess.run(["/bin/sh", script_path], env=dict(env, REMAKE_DIR=fresh, MPIEXEC=args.mpiexec),
                   capture_output=True, text=True, timeout=180)
check(r.returncode == 0, f"the script runs: {r.stderr}")
for h5 in ("W.h5", "D.h5"):
    d = subprocess.run([args.h5diff, os.path.join(run_dir, h5), os.path.join(fresh, h5)], capture_output=True,
                       text=True)
    check(d.returncode == 0, f"{h5} is h5diff-identical: {d.stdout[:500]}")
with open(os.path.join(run_dir, "dec.txt"), "rb") as a, open(os.path.join(fresh, "dec.txt"), "rb") as b:
    check(a.read() == b.read(), "dec.txt is byte-identical")

# The remake of an HDF5 output after it changed: its last recorded version, and the script says so.
with open(os.path.join(run_dir, "D.h5"), "ab") as f:
    f.write(b"\0")
script = pq.run("remake", "D.h5", prov, cwd=run_dir).stdout
commands = [line for line in script.splitlines() if line.startswith("${MPIEXEC")]
check(len(commands) == 2 and "h5dump" not in script, f"D.h5: acquire, decimate:\n{script}")
check("Note: it changed since its last recorded version" in script, "the script says D.h5 changed")
pq.run("remake", "nosuch.h5", prov, cwd=run_dir, expect=2)
oracle.finish("lineage.remake")
