"""No noise by default (issue 13): what no user means as data stays out of the record, each rule
checked with a real program under the preload library, and each rule's file recorded again with
PROVIO_POSIX_NOISE=record (so the test can tell the rule, not chance, left it out):

- HDF5's plugin search: an HDF5 program under the VOL connector and the preload library records
  nothing under HDF5_PLUGIN_PATH, no libprovio*.so;
- MPI runtime session directories (Open MPI's ompi.<host>.<uid>, PRRTE's prte.*, Open MPI 5 mpirun's
  prterun.*, PMIx's pmix-*),
  ROMIO's <file>.locktest.<n>, MPI shared-memory segments in /dev/shm;
- shared libraries (<name>.so, <name>.so.<n>);
- /proc, /sys, /dev — while a file a user stages in /dev/shm by name is recorded;
- the root and temporary directories themselves (hwloc opens /, MPI runtimes scan /tmp);
- and a real MPI job under mpirun: nothing of its runtime files, its data file recorded.

    noise_test.py --preload LIB --plugins DIR --stage H5_STAGE --mpiexec MPIEXEC --mpi-io BIN --work DIR"""
import argparse
import os
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "posix"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineage_env  # noqa: E402
import provlib  # noqa: E402
from provlib import check  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("preload", "plugins", "stage", "mpiexec", "mpi-io", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()

work, _ = lineage_env.fresh_work(args.work)
base_env = lineage_env.clean_env()


def recorded(prov):
    g = provlib.load(prov)
    return {os.fsdecode(provlib.path_of(e)) for e in g.subjects(provlib.RDF.type, provlib.PIO.File)} | \
        {os.fsdecode(provlib.path_of(e)) for e in g.subjects(provlib.RDF.type, provlib.PIO.Directory)}


def run(name, argv, extra=None, cwd=None):
    prov = os.path.join(work, "prov-" + name)
    env = dict(base_env, LD_PRELOAD=args.preload, PROVIO_DIR=prov, **(extra or {}))
    r = subprocess.run(argv, env=env, cwd=cwd or work, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        sys.exit(f"{argv} failed: {r.stderr}")
    return recorded(prov)


# HDF5's plugin search, with the connector and the preload library together.
plugins = os.path.realpath(args.plugins)
paths = run("hdf5", [args.stage, "acquire", "out.h5"], {"HDF5_PLUGIN_PATH": plugins, "HDF5_VOL_CONNECTOR": "provio"})
check(os.path.join(work, "out.h5") in paths, f"the HDF5 program's output is recorded: {sorted(paths)}")
check(not [p for p in paths if p == plugins or p.startswith(plugins + "/")], f"nothing of the plugin search: {paths}")
check(not [p for p in paths if "libprovio" in p], f"no provio library: {paths}")

# Files of runtimes, made and read by real programs (a shell, cat) under the rule's names.
host, uid = socket.gethostname(), os.getuid()
session = os.path.join(work, f"ompi.{host}.{uid}", "jf.0")
shm_segment = f"/dev/shm/vader_segment.{host}.provio-test.{os.getpid()}"
shm_data = f"/dev/shm/provio-test-{os.getpid()}.dat"
noise = {
    "session directory": os.path.join(session, "contact.txt"),
    "PRRTE session directory": os.path.join(work, f"prte.{host}.{uid}", "dvm", "uri"),
    "Open MPI 5 mpirun session directory": os.path.join(work, f"prterun.{host}.{os.getpid()}.{uid}", "1", "pid"),
    "PMIx directory": os.path.join(work, "pmix-12345", "dstore"),
    "ROMIO lock test": os.path.join(work, "data.h5.locktest.3"),
    "shared library": os.path.join(work, "libplugin.so"),
    "versioned shared library": os.path.join(work, "libplugin.so.1.2"),
    "MPI shared-memory segment": shm_segment,
}
data = {"data file": os.path.join(work, "data.txt"), "/dev/shm data": shm_data,
        "not a library": os.path.join(work, "notes.so.txt")}
script = "; ".join(f"mkdir -p '{os.path.dirname(p)}'; echo x > '{p}'; cat '{p}' > /dev/null"
                   for p in list(noise.values()) + list(data.values()))
script += "; cat /proc/self/stat /sys/kernel/osrelease > /dev/null; head -c 4 /dev/urandom > /dev/null"
script += "; ls / /tmp > /dev/null"  # the root and temporary directories themselves
try:
    paths = run("files", ["/bin/sh", "-c", script])
    for what, p in noise.items():
        check(p not in paths, f"{what} {p} is not recorded")
        check(not [x for x in paths if x.startswith(p + "/")], f"nothing under {what}")
    for what, p in data.items():
        check(p in paths, f"{what} {p} is recorded: {sorted(paths)}")
    check(not [x for x in paths if x.startswith(("/proc/", "/sys/")) or x in ("/dev/urandom", "/dev/null")],
          f"/proc, /sys, /dev not recorded: {sorted(paths)}")
    check("/" not in paths and "/tmp" not in paths, f"/ and /tmp themselves not recorded: {sorted(paths)}")
    # The rules, not chance: with PROVIO_POSIX_NOISE=record the same files are recorded.
    paths = run("files-recorded", ["/bin/sh", "-c", script], {"PROVIO_POSIX_NOISE": "record"})
    for what, p in noise.items():
        check(p in paths, f"with PROVIO_POSIX_NOISE=record, {what} {p} is recorded")
    check("/" in paths and "/tmp" in paths, "with PROVIO_POSIX_NOISE=record, / and /tmp are recorded")
finally:
    for p in (shm_segment, shm_data):
        if os.path.exists(p):
            os.remove(p)

# A real MPI job: none of its runtime files, its data recorded.
env = lineage_env.clean_env(mpi=True)
prov = os.path.join(work, "prov-mpi")
os.makedirs(os.path.join(work, "mpidata"))
subprocess.run([args.mpiexec, "-np", "2", "-x", "LD_PRELOAD=" + args.preload, "-x", "PROVIO_DIR=" + prov,
                args.mpi_io, os.path.join(work, "mpidata")], env=env, check=True, timeout=120, capture_output=True)
paths = recorded(prov)
check(os.path.join(work, "mpidata", "rank0.dat") in paths, f"the MPI job's data is recorded: {sorted(paths)}")
runtime = [p for p in paths if any(c.startswith(("ompi.", "prte.", "prterun.", "pmix")) for c in p.split("/"))
           or ".locktest" in p or p.startswith("/dev/")]
check(not runtime, f"no MPI runtime file: {runtime}")
print("recorded in the MPI job:", sorted(paths))
print("ok")
