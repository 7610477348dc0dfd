"""Shared helpers of the security and input-robustness tests: scratch directories an unprivileged
user can reach, running as that user, real provenance from a real program, and the independent
RDF judges (rdflib and rapper)."""
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile

import rdflib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402

NOBODY = 65534
# PROVIO_STORE_FORM stays: ctest runs the store cases in each store form.
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("PROVIO_") or k == "PROVIO_STORE_FORM"}


def fail(msg):
    raise AssertionError(msg)


def check(cond, msg):
    if not cond:
        fail(msg)


@contextlib.contextmanager
def scratch_dir(name):
    """A fresh world-traversable directory (the build tree may be unreachable for nobody), removed
    afterwards."""
    d = tempfile.mkdtemp(prefix=f"provio-{name}-")
    os.chmod(d, 0o755)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def shared_dir(parent, name="shared"):
    """A directory like /tmp: everyone may write, the sticky bit set."""
    d = os.path.join(parent, name)
    os.mkdir(d)
    os.chmod(d, 0o1777)
    return d


def as_nobody(argv):
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *argv]


def copy_for_nobody(binary, d):
    """A copy of `binary` and the provio and HDF5 libraries it loads in `d`/bin, which nobody can
    run (a build tree or an HDF5 cache under /root is unreachable for nobody); returns (path,
    environment)."""
    bin_dir = os.path.join(d, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    os.chmod(bin_dir, 0o755)
    libs = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout.splitlines()
    for lib in libs:
        if ("libprovio" in lib or "libhdf5" in lib) and "=>" in lib:
            shutil.copy(lib.split("=>")[1].split()[0], bin_dir)
    copy = shutil.copy(binary, bin_dir)
    for f in os.listdir(bin_dir):
        os.chmod(os.path.join(bin_dir, f), 0o755)
    return copy, {"LD_LIBRARY_PATH": bin_dir}


def nobody_python(code, *args):
    """Runs Python `code` as nobody (the hostile second user)."""
    subprocess.run(as_nobody(["/usr/bin/python3", "-c", code, *map(str, args)]), check=True, env=CLEAN_ENV)


def run(argv, env=None, expect=None, timeout=60, **kw):
    full = dict(CLEAN_ENV)
    full.update(env or {})
    p = subprocess.run(list(map(str, argv)), env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, **kw)
    p.out = p.stdout.decode(errors="replace")
    p.err = p.stderr.decode(errors="replace")
    if expect is not None and p.returncode != expect:
        fail(f"{argv} exited {p.returncode}, expected {expect}\nstdout:\n{p.out[-2000:]}\nstderr:\n{p.err[-2000:]}")
    return p


def record(record_events, provio_dir, **env):
    """Real provenance: the prov-merge test program records known events into `provio_dir`, as plain
    Turtle (PROVIO_COMPRESS=none): the tests cut, splice and damage its text."""
    run([record_events, "--threads", 2, "--events", 3, "--flushes", 2, "--write",
         os.path.join(os.path.dirname(provio_dir), "data.h5")],
        env={"PROVIO_DIR": provio_dir, "PROVIO_COMPRESS": "none", **env}, expect=0)
    files = sorted(os.path.join(r, n) for r, _, ns in os.walk(provio_dir) for n in ns if n.endswith(".ttl"))
    check(files, f"no provenance recorded in {provio_dir}")
    return files


def rdf_loads(path, fmt):
    """Both judges accept the file (a compressed raw file: its Turtle): rdflib parses it and rapper
    counts it without an error."""
    data, base = zstd_raw.read_bytes(path), "file://" + os.path.abspath(path)
    try:
        rdflib.Graph().parse(data=data, format=fmt, publicID=base)
    except Exception as e:  # rdflib raises many kinds
        fail(f"rdflib rejects {path}: {e}")
    p = subprocess.run(["rapper", "-q", "-c", "-i", "turtle" if fmt == "turtle" else "ntriples", "-", base],
                       input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stderr = p.stderr.decode(errors="replace")
    check(p.returncode == 0, f"rapper rejects {path}: {p.stderr[:500]}")
