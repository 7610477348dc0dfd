"""Runs a program twice, without provio and under it, and checks that provio is invisible: the
files the program writes, its stdout, stderr and exit status are byte-identical, and provio's own
files parse on their own (rdflib). HDF5 files are compared by existence only: HDF5 stores object
times in them.
    hostile.py <mode> <program> [args...]
mode: posix=<preload library> | vol=<plugin dir>; "{dir}" in args is the run's work directory."""
import glob
import os
import subprocess
import sys
import tempfile

import rdflib


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(argv, work, env):
    argv = [a.replace("{dir}", work) for a in argv]
    p = subprocess.run(argv, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout, p.stderr


def tree(work):
    files = {}
    for root, _, names in os.walk(work):
        for n in names:
            full = os.path.join(root, n)
            rel = os.path.relpath(full, work)
            with open(full, "rb") as f:
                files[rel] = None if n.endswith(".h5") else f.read()
    return files


def main():
    mode, argv = sys.argv[1], sys.argv[2:]
    kind, _, where = mode.partition("=")
    base = tempfile.mkdtemp(prefix="provio-hostile-")
    native_dir, traced_dir, prov = (os.path.join(base, d) for d in ("native", "traced", "prov"))
    for d in (native_dir, traced_dir):
        os.mkdir(d)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "HDF5_VOL", "LD_PRELOAD"))}
    native = run(argv, native_dir, env)
    traced_env = dict(env, PROVIO_DIR=prov)
    if kind == "posix":
        traced_env["LD_PRELOAD"] = where
    else:
        traced_env.update(HDF5_PLUGIN_PATH=where, HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}")
    traced = run(argv, traced_dir, traced_env)
    names = ("exit status", "stdout", "stderr")
    for name, a, b in zip(names, native, traced):
        if a != b:
            fail("%s differs: native %r, traced %r" % (name, a[:400] if name != "exit status" else a,
                                                        b[:400] if name != "exit status" else b))
    a, b = tree(native_dir), tree(traced_dir)
    if sorted(a) != sorted(b):
        fail("files differ: native %s, traced %s" % (sorted(a), sorted(b)))
    for rel in a:
        if a[rel] != b[rel]:
            fail("%s differs: %d bytes native, %d traced; traced starts %r" % (rel, len(a[rel]), len(b[rel]), b[rel][:120]))
    ttl = sorted(glob.glob(os.path.join(prov, "**", "*.ttl"), recursive=True))
    if not ttl:
        fail("provio wrote no provenance under " + prov)
    for f in ttl:
        try:
            rdflib.Graph().parse(f, format="turtle")
        except Exception as e:  # noqa: BLE001
            fail("%s does not parse: %s" % (f, e))
    print("ok: %d files identical, %d provenance files parse" % (len(a), len(ttl)))


main()
