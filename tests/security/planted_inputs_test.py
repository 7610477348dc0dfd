#!/usr/bin/python3
"""Provenance another user planted, a store others can read, names that rewrite a terminal
(docs/security.md, "What the tools read"). Run as root, the victim; nobody is the attacker.

  planted_inputs_test.py CASE --preload LIBPROVIO_POSIX --merge PROV_MERGE --query PROV_QUERY
                         --run PROV_RUN --record RECORD_EVENTS --pythonpath BUILD/python
"""
import os
import pty
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cases  # noqa: E402
from common import NOBODY, as_nobody, check, nobody_python, record, run, scratch_dir, shared_dir  # noqa: E402

ARGS = None
WRITE_RESULT = "import sys\nopen('result.txt', 'w').write(' '.join(sys.argv[1:]))\n"


def traced_python(code, cwd, env, *args):
    """A real program under the POSIX preload library (its command line is `args`)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
    try:
        return run(["/usr/bin/python3", f.name, *args], cwd=cwd, expect=0,
                   env={"LD_PRELOAD": ARGS.preload, "PYTHONPATH": ARGS.pythonpath, **env})
    finally:
        os.unlink(f.name)


def forged_raw(d, shared):
    """Raw provenance saying that `forged --by nobody` wrote SHARED/result.txt, owned by nobody."""
    raw = os.path.join(d, "forged-raw")
    traced_python(WRITE_RESULT, shared, {"PROVIO_DIR": raw}, "forged", "--by", "nobody")
    return raw


def chown_tree(path, uid):
    for root, dirs, files in os.walk(path):
        for n in dirs + files:
            os.lchown(os.path.join(root, n), uid, uid)
    os.lchown(path, uid, uid)


def owners(path):
    return {os.lstat(os.path.join(r, n)).st_uid for r, _, ns in os.walk(path) for n in ns} | {os.lstat(path).st_uid}


def refused(p, path):
    check(p.returncode == 2 and "forged" not in p.out, f"{path} was read:\n{p.out}\n{p.err}")
    check(path in p.err and "uid 65534" in p.err and "refused" in p.err, f"no refusal naming {path}:\n{p.err}")


def case_planted_store():
    """Defect 2: nobody's ./provio.db in a shared directory is neither root's default input nor
    where prov-run merges root's job; named explicitly it is refused unless --trust-inputs."""
    with scratch_dir("planted-store") as d:
        shared = shared_dir(d)
        forged = forged_raw(d, shared)
        planted = os.path.join(shared, "provio.db")
        run([ARGS.merge, forged, "--store", planted, "-o", "/dev/null", "-q"], expect=0)
        chown_tree(planted, NOBODY)
        # root's real run, recorded in root's ./provio
        traced_python(WRITE_RESULT, shared, {}, "real", "run")
        p = run([ARGS.query, "lineage", "result.txt", "-f", "csv"], cwd=shared)
        refused(p, "provio.db")
        p = run([ARGS.query, "lineage", "result.txt", "-f", "csv", "-i", planted], cwd=shared)
        refused(p, planted)
        p = run([ARGS.query, "lineage", "result.txt", "-f", "csv", "-i", planted, "--trust-inputs"], cwd=shared,
                expect=0)
        check("forged" in p.out and "warning" in p.err and planted in p.err, f"--trust-inputs:\n{p.out}\n{p.err}")
        # root's own records, named, are answered
        p = run([ARGS.query, "lineage", "result.txt", "-f", "csv", "provio"], cwd=shared, expect=0)
        check("real" in p.out and "forged" not in p.out, p.out)
        # prov-run leaves nobody's store alone and says so; root's raw files stay
        before = {n: os.lstat(os.path.join(planted, n)).st_mtime_ns for n in os.listdir(planted)}
        p = run([ARGS.run, "--dir", os.path.join(shared, "job"), "--", "sh", "-c", "echo x > out.txt"], cwd=shared)
        check(p.returncode == 125 and "refused" in p.err and "provio.db" in p.err, f"prov-run merged:\n{p.err}")
        after = {n: os.lstat(os.path.join(planted, n)).st_mtime_ns for n in os.listdir(planted)}
        check(before == after and owners(planted) == {NOBODY}, "prov-run changed nobody's store")
        check(os.listdir(os.path.join(shared, "job")), "prov-run lost root's raw files")


def case_swapped_local():
    """Defect 2: a provio/ directory nobody made in a shared directory (its local/ holding forged
    raw files) is not root's default input either, nor any file of nobody's found inside a
    directory below a world-writable one."""
    with scratch_dir("swapped-local") as d:
        shared = shared_dir(d)
        forged = forged_raw(d, shared)
        nobody_python("import os, sys\nos.makedirs(sys.argv[1])\n", os.path.join(shared, "provio"))
        local = os.path.join(shared, "provio", "local")
        shutil.copytree(forged, local)
        chown_tree(local, NOBODY)
        p = run([ARGS.query, "lineage", "result.txt", "-f", "csv"], cwd=shared)
        refused(p, os.path.join(shared, "provio"))
        # root's own directory, world-writable, where nobody dropped a file: that file is refused
        mine = os.path.join(shared, "mine")
        os.mkdir(mine)
        os.chmod(mine, 0o777)
        shutil.copytree(forged, os.path.join(mine, "local"))
        chown_tree(os.path.join(mine, "local"), NOBODY)
        os.lchown(os.path.join(mine, "local"), 0, 0)
        p = run([ARGS.merge, mine, "-o", os.path.join(d, "out.ttl")], cwd=shared)
        check(p.returncode == 2 and "refused" in p.err and "uid 65534" in p.err, f"nobody's files merged:\n{p.err}")
        check("forged" not in open(os.path.join(d, "out.ttl")).read(), "the forged records were merged")


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def case_store_modes():
    """Defect 3: prov-run's store keeps the raw files' modes, whatever the umask lets through:
    0700/0600, or 0750/0640 with PROVIO_SHARE=group; nobody cannot read it."""
    with scratch_dir("store-modes") as d:
        for share, (dmode, fmode) in (("user", (0o700, 0o600)), ("group", (0o750, 0o640))):
            work = os.path.join(d, share)
            os.mkdir(work)
            os.chmod(work, 0o755)
            old = os.umask(0o022)
            try:
                run([ARGS.run, "--", "sh", "-c", "echo x > out.txt"], cwd=work, env={"PROVIO_SHARE": share}, expect=0)
            finally:
                os.umask(old)
            store = os.path.join(work, "provio.db")
            check(mode(store) == dmode, f"{store}: mode {mode(store):o}, expected {dmode:o}")
            files = os.listdir(store)
            check(files, "empty store")
            for n in files:
                f = os.path.join(store, n)
                check(mode(f) == fmode, f"{f}: mode {mode(f):o}, expected {fmode:o}")
            p = subprocess.run(as_nobody(["ls", store]), capture_output=True)
            check(p.returncode != 0, f"nobody can list {store}")


def on_terminal(argv, cwd):
    """Runs argv with its standard output on a pseudo-terminal; returns what it printed."""
    master, slave = pty.openpty()
    p = subprocess.Popen(list(map(str, argv)), cwd=cwd, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other end is closed
            break
        if not chunk:
            break
        out += chunk
    p.wait(timeout=60)
    os.close(master)
    check(p.returncode == 0, f"{argv} exited {p.returncode}: {p.stderr.read()}")
    return out


EVIL = "evil\x1b]0;owned\x07\x1b[2J\x9b1m.txt"


def case_terminal():
    """Defect 10: a file name holding escape sequences is shown escaped in prov-query's table (and
    CSV) on a terminal and in prov-merge's messages; CSV to a file keeps the exact name."""
    with scratch_dir("terminal") as d:
        raw = os.path.join(d, "raw")
        traced_python(f"open({EVIL!r}, 'w').write('x')\n", d, {"PROVIO_DIR": raw})
        for fmt in ("table", "csv"):
            out = on_terminal([ARGS.query, "files", "-f", fmt, raw], d)
            check(b"\x1b" not in out and b"\x07" not in out and b"\xc2\x9b" not in out,
                  f"{fmt} on a terminal holds raw controls: {out!r}")
            check(b"evil\\x1b]0;owned\\x07\\x1b[2J\\u009b1m.txt" in out, f"{fmt}: escaped name missing: {out!r}")
        csv = os.path.join(d, "files.csv")
        run([ARGS.query, "files", "-f", "csv", "-o", csv, raw], expect=0)
        check(EVIL.encode() in open(csv, "rb").read(), "CSV in a file does not hold the exact name")
        # a damaged input of that name: prov-merge's message names it escaped
        bad = os.path.join(d, "bad", EVIL + ".ttl")
        os.makedirs(os.path.dirname(bad))
        with open(bad, "w") as f:
            f.write("not turtle at all\n")
        p = run([ARGS.merge, os.path.dirname(bad), "-o", os.path.join(d, "m.ttl")], expect=2)
        check("\x1b" not in p.err and "\x07" not in p.err and "\x9b" not in p.err, f"raw controls: {p.err!r}")
        check("evil\\x1b]0;owned\\x07\\x1b[2J\\u009b1m.txt.ttl" in p.err, f"escaped name missing: {p.err!r}")


def main():
    global ARGS
    ARGS, case = cases.parse(globals(), ["--preload", "--merge", "--query", "--run", "--record", "--pythonpath"])
    check(os.geteuid() == 0, "these tests run as root (they switch to nobody themselves)")
    case()
    print(f"planted_inputs.{ARGS.case}: ok")


if __name__ == "__main__":
    main()
