"""An MPI program under mpirun with the preload library: each rank's POSIX I/O is attributed to
its own program execution, which carries the job and its rank.
    test_mpi.py <preload> <mpiexec> <np> <mpi_io binary>"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import PIO, check, select  # noqa: E402

preload, mpiexec, np, binary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
work = tempfile.mkdtemp(prefix="provio-posix-mpi-")
prov = os.path.join(work, "prov")
data = os.path.join(work, "data")
os.mkdir(data)
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1",
           PRTE_MCA_rmaps_default_mapping_policy=":oversubscribe")
subprocess.run([mpiexec, "-np", str(np), "-x", "LD_PRELOAD=" + preload, "-x", "PROVIO_DIR=" + prov,
                binary, data], env=env, check=True, timeout=120)

g = provlib.load(prov)
runs = provlib.runs(g)
acts = provlib.activities(g)
ranks = {}
for r, v in runs.items():
    if v["executable"] != os.path.realpath(binary):
        continue
    rank = g.value(r, PIO.rank)
    check(rank is not None, "run %s has no rank" % r)
    ranks[int(g.value(rank, PIO.rankNumber))] = r
    check(g.value(r, PIO.job) is not None, "run %s has no job" % r)
check(sorted(ranks) == list(range(np)), "ranks %s" % sorted(ranks))
check(len({g.value(r, PIO.job) for r in ranks.values()}) == 1, "ranks in different jobs")
for rank, run in ranks.items():
    path = os.path.join(data, "rank%d.dat" % rank)
    w = select(acts, path=path, cls="Write")
    check(len(w) == 1 and w[0].run == run and (w[0].count, w[0].bytes) == (rank + 1, 10 * (rank + 1)),
          "rank%d.dat writes: %s" % (rank, w))
    reader = ranks[(rank - 1) % np]
    rd = select(acts, path=path, cls="Read")
    check(sum(a.bytes for a in rd if a.run == reader) == 10 * (rank + 1) and all(a.run == reader for a in rd),
          "rank%d.dat reads: %s" % (rank, rd))
shutil.rmtree(work)
print("ok")
