"""Runs a program twice, without provio and under it, and checks that provio is invisible: the
files the program writes, its stdout, stderr and exit status are byte-identical, and provio's own
files parse on their own (rdflib). HDF5 files are compared by existence only: HDF5 stores object
times in them.
    hostile.py [options] <mode> <program> [args...]
mode: posix=<preload library> | vol=<plugin dir> | vol=<plugin dir>,posix=<preload library>
"{dir}" in args and option values is the run's work directory. Options:
    --env K=V          set for both runs
    --vol-options S    appended to the VOL connector string ("level=loud")
    --base DIR         where the work and output directories go (default: a new temporary one)
    --expect TEXT      some IRI or literal in the provenance contains TEXT
    --reject TEXT      no IRI or literal in the provenance contains TEXT
    --incomplete R     the graph marks the run incomplete for reason R (provio:reason "R")
    --merge TOOL       check --incomplete on what prov-merge TOOL makes of the files (it adds the
                       marks of runs that ended without their final flush)
    --log TEXT         provio's messages (PROVIO_LOG, set to a file by this script) contain TEXT
    --log-once TEXT    ... exactly once (a failure reported once, not per write)
    --launcher         the program is an MPI launcher: stderr is not compared (it carries the
                       launcher's own reports, which vary between runs even without provio: Open
                       MPI's MPI_Abort report races its help-message delivery)
    --timeout S        per run (default 60)"""
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

import rdflib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402

PIO = rdflib.Namespace("http://www.w3.org/ns/provio#")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(argv, work, env, opts):
    argv = [a.replace("{dir}", work) for a in argv]
    try:
        p = subprocess.run(argv, cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=opts["timeout"])
    except subprocess.TimeoutExpired:
        fail("%s did not finish within %ss (hang)" % (argv[0], opts["timeout"]))
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


def parse_args(args):
    opts = {"env": [], "vol_options": "", "base": None, "expect": [], "reject": [], "incomplete": [], "log": [],
            "log_once": [], "merge": None, "launcher": False, "timeout": 60}
    while args and args[0].startswith("--"):
        key = args.pop(0)[2:].replace("-", "_")
        if key == "launcher":
            opts[key] = True
        elif isinstance(opts[key], list):
            opts[key].append(args.pop(0))
        elif key == "timeout":
            opts[key] = float(args.pop(0))
        else:
            opts[key] = args.pop(0)
    return opts, args[0], args[1:]


def traced_env(env, mode, prov, opts):
    env = dict(env, PROVIO_DIR=prov)
    for part in mode.split(","):
        kind, _, where = part.partition("=")
        if kind == "posix":
            env["LD_PRELOAD"] = where
        else:
            env.update(HDF5_PLUGIN_PATH=where,
                       HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}" + (";" + opts["vol_options"]
                                                                                 if opts["vol_options"] else ""))
    return env


def check_provenance(prov, work, opts, log):
    ttl = zstd_raw.raw_files(prov, recursive=True)
    if not ttl:
        fail("provio wrote no provenance under " + prov)
    g = rdflib.Graph()
    for f in ttl:
        try:
            zstd_raw.parse(f, g)
        except Exception as e:  # noqa: BLE001
            fail("%s does not parse: %s" % (f, e))
    # Raw files abbreviate IRIs with per-file prefixes: match the terms as parsed, not the text.
    text = "\n".join({str(t) for triple in g for t in triple})
    for t in opts["expect"]:
        if t.replace("{dir}", work) not in text:
            fail("no provenance file contains %r" % t.replace("{dir}", work))
    for t in opts["reject"]:
        if t.replace("{dir}", work) in text:
            fail("a provenance file contains %r" % t.replace("{dir}", work))
    if opts["merge"]:
        merged = os.path.join(prov, "merged.ttl.out")
        m = subprocess.run([opts["merge"], "-q", prov, "-o", merged], stderr=subprocess.PIPE, text=True)
        if m.returncode != 0:
            fail("prov-merge failed: " + m.stderr)
        g.parse(merged, format="turtle")
    reasons = {str(g.value(n, PIO.reason)): 0 for _, _, n in g.triples((None, PIO.incomplete, None))}
    for _, _, n in g.triples((None, PIO.incomplete, None)):
        reasons[str(g.value(n, PIO.reason))] += int(g.value(n, PIO.lost))
    for r in opts["incomplete"]:
        if r not in reasons:
            fail("no provio:incomplete with reason %r (found %s)" % (r, reasons))
    for t in opts["log"]:
        if t not in log:
            fail("provio's messages lack %r: %r" % (t, log))
    for t in opts["log_once"]:
        if log.count(t) != 1:
            fail("provio's messages hold %r %d times, not once: %r" % (t, log.count(t), log))
    return len(ttl)


def main():
    opts, mode, argv = parse_args(sys.argv[1:])
    base = tempfile.mkdtemp(prefix="provio-hostile-", dir=opts["base"])
    native_dir, traced_dir, prov = (os.path.join(base, d) for d in ("native", "traced", "prov"))
    logdir = tempfile.mkdtemp(prefix="provio-hostile-log-")  # outside --base: a full file system
    log = os.path.join(logdir, "provio.log")
    for d in (native_dir, traced_dir):
        os.mkdir(d)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "HDF5_VOL", "LD_PRELOAD"))}
    for kv in opts["env"]:
        k, _, v = kv.partition("=")
        env[k] = v
    native = run(argv, native_dir, env, opts)
    a = tree(native_dir)
    shutil.rmtree(native_dir)  # room for the traced run on a small file system
    tenv = traced_env(env, mode, prov, opts)
    tenv.setdefault("PROVIO_LOG", log)
    traced = run(argv, traced_dir, tenv, opts)
    if native[0] != traced[0]:
        fail("exit status differs: native %r, traced %r (stderr %r)" % (native[0], traced[0], traced[2][-400:]))
    for name, x, y in zip(("stdout", "stderr"), native[1:], traced[1:]):
        if x != y and not (name == "stderr" and opts["launcher"]):
            diff = difflib.unified_diff(x.decode(errors="replace").splitlines(), y.decode(errors="replace").splitlines(),
                                        "native", "traced", lineterm="", n=1)
            fail("%s differs:\n%s" % (name, "\n".join(list(diff)[:30])))
    b = tree(traced_dir)
    if sorted(a) != sorted(b):
        fail("files differ: native %s, traced %s" % (sorted(a), sorted(b)))
    for rel in a:
        if a[rel] != b[rel]:
            fail("%s differs: %d bytes native, %d traced; traced starts %r" % (rel, len(a[rel]), len(b[rel]), b[rel][:120]))
    messages = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
    n = check_provenance(prov, traced_dir, opts, messages)
    print("ok: %d files identical, %d provenance files parse" % (len(a), n))
    shutil.rmtree(base, ignore_errors=True)
    shutil.rmtree(logdir, ignore_errors=True)


main()
