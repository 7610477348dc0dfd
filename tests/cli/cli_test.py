#!/usr/bin/python3
"""What the four tools do alike (docs/tools.md): --version names the provio version and, built
from a git checkout, the revision; -q/--quiet everywhere; misuse exits 1 (prov-run 125) with the
usage on stderr; progress shows on a terminal when a load takes more than two seconds, and never
when stderr is not a terminal or with --quiet.

  cli_test.py CASE --bin BUILD_DIR --version VERSION --source SOURCE_DIR

The slow load is real: the input is a FIFO the test writes only after three seconds.
"""
import concurrent.futures
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cases  # noqa: E402

TOOLS = ["prov-merge", "prov-query", "prov-viz", "prov-run"]
ARGS = None
TURTLE = ('@prefix prov: <http://www.w3.org/ns/prov#> .\n'
          '<file:///x/out.txt> a prov:Entity ; prov:wasGeneratedBy <urn:a> .\n'
          '<urn:a> a prov:Activity .\n')


def tool(name):
    return os.path.join(ARGS.bin, "tools", name, name)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60, **kw)


def case_version():
    rev = ""
    if os.path.exists(os.path.join(ARGS.source, ".git")):
        rev = run(["git", "-C", ARGS.source, "rev-parse", "--short=7", "HEAD"]).stdout.strip()
    for t in TOOLS:
        for flag in ("--version", "-V"):
            p = run([tool(t), flag])
            assert p.returncode == 0 and p.stderr == "", (t, p)
            m = re.fullmatch(rf"{t} \(provio\) {re.escape(ARGS.version)}(?: \(git ([0-9a-f]+)(-dirty)?\))?\n",
                             p.stdout)
            assert m, (t, p.stdout)
            if rev:  # the revision at build time: HEAD, or an ancestor when commits followed the build
                anc = run(["git", "-C", ARGS.source, "merge-base", "--is-ancestor", m.group(1) or "none", "HEAD"])
                assert anc.returncode == 0, f"{t} reports revision {m.group(1)}, not in the history of {rev}"
    # prov-query / prov-viz take it before a command too.
    assert run([tool("prov-query"), "--version"]).returncode == 0


def case_misuse():
    for t, code in (("prov-merge", 1), ("prov-query", 1), ("prov-viz", 1), ("prov-run", 125)):
        for argv in ([], ["--no-such-option"]):
            p = run([tool(t), *argv])
            assert p.returncode == code, (t, argv, p.returncode, p.stderr)
            assert p.stderr.startswith(t + ": ") and "usage:" in p.stderr and p.stdout == "", (t, argv, p)
        p = run([tool(t), "--help"])
        assert p.returncode == 0 and "usage:" in p.stdout and p.stderr == "", (t, p)
        assert "--version" in p.stdout and "--quiet" in p.stdout, f"{t} --help lacks --version/--quiet"
    # Data errors: 2, one line naming what and where.
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, "bad.ttl")
        with open(bad, "w") as f:
            f.write("<a> <b> .\n")
        for argv in ([tool("prov-query"), "files", bad], [tool("prov-viz"), "report", "-o", d + "/r.html", bad]):
            p = run(argv)
            assert p.returncode == 2 and bad in p.stderr, (argv, p)


def case_options():
    """An option given to a command it does not apply to is misuse (exit 1, naming the option and
    the command), never silently ignored; the same option where it applies is answered."""
    with tempfile.TemporaryDirectory() as d:
        ttl = os.path.join(d, "job.ttl")
        with open(ttl, "w") as f:
            f.write(TURTLE)
        misplaced = [
            ("prov-query", ["stats", "--depth", "3"], "--depth", "stats"),
            ("prov-query", ["lineage", "out.txt", "--by", "file"], "--by", "lineage"),
            ("prov-query", ["programs", "--nested"], "--nested", "programs"),
            ("prov-query", ["files", "--metric", "loss"], "--metric", "files"),
            ("prov-query", ["sparql", "-e", "ASK {}", "--top", "3"], "--top", "sparql"),
            ("prov-query", ["checkpoints", "--stage", "validation"], "--stage", "checkpoints"),
            ("prov-query", ["remake", "out.txt", "-f", "csv"], "-f", "remake"),
            ("prov-query", ["select", "--up"], "--up", "select"),
            ("prov-viz", ["report", "-o", os.path.join(d, "r.html"), "--depth", "2"], "--depth", "report"),
        ]
        for t, argv, option, command in misplaced:
            p = run([tool(t), *argv, ttl])
            assert p.returncode == 1 and p.stdout == "", (t, argv, p)
            assert p.stderr.startswith(f"{t}: option {option} does not apply to {command}\n"), (t, argv, p.stderr)
            assert "usage:" in p.stderr, (t, argv, p.stderr)
        # A count that is not one (too large for the tool, not all digits) is misuse naming the
        # option, never read as another number (strtol would saturate it).
        for t, argv, message in (
                ("prov-query", ["stats", "--top", "99999999999999999999"], "stats: --top takes a number"),
                ("prov-query", ["select", "--limit", " 3"], "select: --limit takes a number"),
                ("prov-query", ["best", "--metric", "loss", "-k", "+-3"], "best: -k takes a number"),
                ("prov-query", ["lineage", "out.txt", "--depth", "1x"], "lineage: --depth takes a number"),
                ("prov-viz", ["lineage", "out.txt", "-o", os.path.join(d, "l.dot"), "--depth",
                              "99999999999999999999"], "--depth takes a number")):
            p = run([tool(t), *argv, ttl])
            assert p.returncode == 1 and p.stderr.startswith(f"{t}: {message}"), (t, argv, p)
        for t, argv in (("prov-query", ["stats", "--nested", "--top", "1"]), ("prov-query", ["files", "--nested"]),
                        ("prov-query", ["lineage", "/x/out.txt", "--depth", "1", "--up"]),
                        ("prov-viz", ["report", "--by-rank", "-o", os.path.join(d, "r.html")])):
            p = run([tool(t), *argv, ttl])
            assert p.returncode == 0, (t, argv, p)


def through_slow_stdin(argv_of, tty, quiet):
    """Runs argv_of("-") with stderr on a pty (tty) or a pipe; its input arrives on stdin after 3 s
    (a pipe: the tools read only regular files and stdin, never a FIFO by name)."""
    with tempfile.TemporaryDirectory() as d:
        rfd, wfd = os.pipe()

        def feed():
            time.sleep(3)
            with os.fdopen(wfd, "w") as f:
                f.write(TURTLE)
        threading.Thread(target=feed, daemon=True).start()
        argv = argv_of("-", d) + (["-q"] if quiet else [])
        if not tty:
            p = subprocess.run(argv, stdin=rfd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=60)
            os.close(rfd)
            return p.returncode, p.stderr
        master, slave = pty.openpty()
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=slave, stdin=rfd)
        os.close(slave)
        os.close(rfd)
        out = b""
        while True:
            r, _, _ = select.select([master], [], [], 30)
            if not r:
                break
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        os.close(master)
        return p.wait(timeout=30), out.decode(errors="replace")


def case_progress():
    argv_of = {
        "prov-merge": lambda src, d: [tool("prov-merge"), src, "-o", d + "/m.ttl"],
        "prov-query": lambda src, d: [tool("prov-query"), "programs", src],
        "prov-viz": lambda src, d: [tool("prov-viz"), "report", "-o", d + "/r.html", src],
    }
    runs = [(name, tty, quiet) for name in argv_of for tty, quiet in ((True, False), (True, True), (False, False))]
    # All at once: each waits three seconds for its input.
    with concurrent.futures.ThreadPoolExecutor(len(runs)) as pool:
        results = list(pool.map(lambda r: through_slow_stdin(argv_of[r[0]], tty=r[1], quiet=r[2]), runs))
    for (name, tty, quiet), (rc, err) in zip(runs, results):
        assert rc == 0, (name, tty, quiet, rc, err)
        if tty and not quiet:
            assert re.search(rf"\r\x1b\[K{name}: [a-z0-9 ]+… 2 s", err), f"{name}: no progress on a terminal: {err!r}"
            assert "\r\x1b[K" in err.rsplit("… ", 1)[1], f"{name}: progress line not erased: {err!r}"
        else:
            assert "…" not in err, (name, tty, quiet, err)


def main():
    global ARGS
    ARGS, case = cases.parse(globals(), ["--bin", "--version", "--source"])
    case()
    print(f"ok: cli.{ARGS.case}")


if __name__ == "__main__":
    main()
