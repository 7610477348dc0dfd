"""Issue 31, item 3: `cp a.txt b.txt; sh -c 'tr a-z A-Z < b.txt > c.txt'; cp x.txt b.txt`, every
program traced by the preload library, the shell too. The shell opens b.txt for the redirection
and execs tr: its own image used b.txt without reading it, so without a version. That use binds to
the version b.txt held then, not to every writer of b.txt, so x.txt and `cp x.txt` (which rewrote
b.txt after c.txt was made) are no ancestors of c.txt: not of its latest version (the default),
not with --all-versions. The shell's stat of its working directory is no input of c.txt."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prov_query"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineage_env  # noqa: E402  (puts tests/ on the path: harness)
import harness  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

args = harness.options("--prov-query", "--preload", "--work")

work, prov = lineage_env.fresh_work(args.work)
env = dict(lineage_env.clean_env(), LD_PRELOAD=args.preload, PROVIO_DIR=prov)
with open(os.path.join(work, "a.txt"), "w") as f:
    f.write("first content\n")
with open(os.path.join(work, "x.txt"), "w") as f:
    f.write("later content\n")
for command in (["cp", "a.txt", "b.txt"], ["sh", "-c", "tr a-z A-Z < b.txt > c.txt"], ["cp", "x.txt", "b.txt"]):
    subprocess.run(command, cwd=work, env=env, check=True, timeout=30)
with open(os.path.join(work, "c.txt")) as f:
    check(f.read() == "FIRST CONTENT\n", "the scenario itself")

pq = oracle.Tool(args.prov_query)
for extra in ([], ["--all-versions"]):
    asked = ["lineage", os.path.join(work, "c.txt"), "--up", "--depth", "all", *extra, prov]
    rows = pq.json(*asked)
    told = pq.run(*asked).stderr
    names = sorted({r["name"] for r in rows if r["kind"] == "entity"})
    commands = sorted({r["command"] for r in rows if r["kind"] == "program"})
    what = " ".join(["lineage c.txt --up", *extra])
    print(what, names, commands)
    check(not any("x.txt" in n for n in names + commands), f"{what}: x.txt is no ancestor of c.txt: {names} {commands}")
    check(work not in names, f"{what}: the shell's working directory is no input: {names}")
    check(any(n.startswith(os.path.join(work, "b.txt") + " @") for n in names), f"{what}: b.txt's first version: {names}")
    check(any(n.startswith(os.path.join(work, "a.txt")) for n in names), f"{what}: a.txt, copied into it: {names}")
    check("cp a.txt b.txt" in commands and "tr a-z A-Z" in commands, f"{what}: cp a.txt and tr: {commands}")
    check(told.startswith("prov-query: lineage of " + os.path.join(work, "c.txt")),
          f"{what}: says which version it answered for: {told!r}")
oracle.finish("lineage.redirect")
