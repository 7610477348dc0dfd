#!/usr/bin/python3
"""prov-viz lineage chooses a file's version as prov-query lineage does (issue 31, item 4): a file
written twice by real programs under the preload library (`cp a.txt out.txt`, then
`cp x.txt out.txt`) is drawn from its latest version by default, from the one named by FILE@N or
FILE@TIME, from all of them with --all-versions; a version that does not exist is refused naming
the argument.

  versions_test.py --viz PROV_VIZ --preload LIBPROVIO_POSIX --work DIR
"""
import datetime
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import harness  # noqa: E402


def fail(message):
    sys.exit("FAIL: " + message)


def main():
    a = harness.options("--viz", "--preload", "--work")
    harness.fresh_dir(a.work)
    env = harness.clean_env()
    raw = os.path.join(a.work, "raw")
    for name, text in (("a.txt", "first\n"), ("x.txt", "second, longer\n")):
        with open(os.path.join(a.work, name), "w") as f:
            f.write(text)
    out = os.path.join(a.work, "out.txt")
    traced = {**env, "LD_PRELOAD": a.preload, "PROVIO_DIR": raw}
    subprocess.run(["cp", "a.txt", "out.txt"], cwd=a.work, check=True, env=traced, timeout=30)
    first_ns = os.stat(out).st_mtime_ns
    time.sleep(0.05)
    subprocess.run(["cp", "x.txt", "out.txt"], cwd=a.work, check=True, env=traced, timeout=30)
    first = datetime.datetime.fromtimestamp(first_ns // 10**9, datetime.timezone.utc)
    at_first = first.strftime("%Y-%m-%dT%H:%M:%S") + ".%09d" % (first_ns % 10**9)

    def draw(target, *extra, expect=0):
        dot = os.path.join(a.work, "lineage.dot")
        if os.path.exists(dot):
            os.remove(dot)
        r = subprocess.run([a.viz, "lineage", target, "--up", "--depth", "all", *extra, "-o", dot, raw],
                           capture_output=True, text=True, env=env, timeout=60)
        if r.returncode != expect:
            fail(f"prov-viz lineage {target} {' '.join(extra)}: exit {r.returncode}, want {expect}: {r.stderr}")
        return (open(dot).read() if expect == 0 else ""), r.stderr

    a_txt, x_txt = os.path.join(a.work, "a.txt"), os.path.join(a.work, "x.txt")
    for target, extra, want, told in ((out, (), {x_txt}, "version 2 of 2"),
                                      (out + "@2", (), {x_txt}, "version 2 of 2"),
                                      (out + "@1", (), {a_txt}, "version 1 of 2"),
                                      (out + "@" + at_first, (), {a_txt}, "version 1 of 2"),
                                      (out, ("--all-versions",), {a_txt, x_txt}, "all 2 versions")):
        dot, stderr = draw(target, *extra)
        drawn = {p for p in (a_txt, x_txt) if p in dot}
        if drawn != want:
            fail(f"lineage {target} {' '.join(extra)}: draws {sorted(drawn)}, want {sorted(want)}")
        if not stderr.startswith(f"prov-viz: lineage of {out}") or told not in stderr:
            fail(f"lineage {target} {' '.join(extra)}: says which version it drew ({told}): {stderr!r}")
    _, stderr = draw(out + "@3", expect=2)
    if f"{out}@3" not in stderr or "2 version(s)" not in stderr:
        fail(f"lineage {out}@3: the refusal names the argument and what exists: {stderr!r}")
    _, stderr = draw(out + "@1", "--all-versions", expect=2)
    if "--all-versions" not in stderr:
        fail(f"lineage {out}@1 --all-versions: refused, saying why: {stderr!r}")
    print("prov_viz.versions: ok")


if __name__ == "__main__":
    main()
