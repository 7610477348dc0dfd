"""Interrupted loads (docs/shared-store.md, "Interrupted loads"): prov-merge --into stopped by
SIGTERM / SIGINT removes its staging graph; one killed outright leaves it, and the next load of
the job removes it; --list shows provio's graphs, --remove GRAPH and --remove-stale clear them; a
load whose staging graph another load of the job removed fails instead of moving part of the job.

"Mid-load" is exact: PROVIO_TEST_INTO_PAUSE_AFTER=2 stops prov-merge (SIGSTOP) once two chunks of
its staging graph are on the server; the test then signals it.

  staging_test.py staging [--engine E] (arguments of store_common.py)"""
import os
import signal
import subprocess

from store_common import *  # noqa: E402,F401,F403


def staging_graphs():
    return sorted(g for g in graphs() if g.startswith("urn:provio:staging:"))


def paused_load(job_dir, graph):
    """prov-merge --into, stopped after two chunks of 10 triples: the process, stopped."""
    p = subprocess.Popen([args.merge, job_dir, "--into", STORE, "--graph", graph, "--chunk", "10"],
                         env=dict(ENV, PROVIO_TEST_INTO_PAUSE_AFTER="2"), cwd=work,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    check("paused after 2 chunks" in line, f"the load pauses mid-way: {line.strip()}")
    os.waitpid(p.pid, os.WUNTRACED)  # stopped for sure, not just about to stop
    return p


def finish(p, *sigs):
    for s in sigs:
        p.send_signal(s)
    out, err = p.communicate(timeout=60)
    return p.returncode, err


def case_staging():
    job = scenario()[1]  # job2: two programs, enough triples for several chunks
    local = local_graph(job)
    check(len(local) > 40, f"the job needs more than two chunks of 10 ({len(local)} triples)")

    # SIGTERM (what a batch system sends at the time limit) and SIGINT: the staging graph goes.
    for sig, name in ((signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "SIGINT")):
        graph = PREFIX + "term"
        p = paused_load(job, graph)
        left = staging_graphs()
        check(len(left) == 1 and graph in urllib.parse.unquote(left[0]),
              f"mid-load, the staging graph is on the server, named after its job: {left}")
        rc, err = finish(p, sig, signal.SIGCONT)
        check(rc == 128 + sig, f"{name}: prov-merge exits {128 + sig} ({rc}): {err.strip()}")
        check(f"interrupted by {name}" in err, f"{name}: the message says why: {err.strip()}")
        check(staging_graphs() == [], f"{name}: no staging graph left on the server")
        check(server_graph(graph) == set(), f"{name}: the job's graph is unchanged (none)")

    # SIGKILL: nothing can clean up; --list shows what is left, the next load of the job removes it.
    graph = PREFIX + "kill"
    rc, _ = finish(paused_load(job, graph), signal.SIGKILL)
    left = staging_graphs()
    check(rc == -signal.SIGKILL and len(left) == 1, f"SIGKILL leaves one staging graph: {left}")
    r = run(args.merge, "--into", STORE, "--list")
    rows = [line.split() for line in r.stdout.splitlines()]
    check(["staging", "20", left[0]] in rows, f"--list shows the staging graph with its 20 triples:\n{r.stdout}")
    r = into(job, extra=("--graph", graph))
    check(staging_graphs() == [] and "left by an interrupted load" in r.stderr,
          f"the next load of the job removes the stale staging graph: {r.stderr.strip()}")
    check(server_graph(graph) == local, "and loads the job whole")
    r = run(args.merge, "--into", STORE, "--list")
    rows = [line.split() for line in r.stdout.splitlines()]
    check(["job", str(len(local)), "urn:provio:graph:" + graph] in rows,
          f"--list shows the job with its triples:\n{r.stdout}")

    # --remove GRAPH clears one leftover; --remove-stale all of them; jobs are untouched.
    for g in ("a", "b", "c"):
        finish(paused_load(job, PREFIX + "left-" + g), signal.SIGKILL)
    left = staging_graphs()
    check(len(left) == 3, f"three loads killed, three staging graphs: {left}")
    run(args.merge, "-q", "--into", STORE, "--remove", left[0])
    check(staging_graphs() == left[1:], "--remove GRAPH removes that staging graph only")
    r = run(args.merge, "--into", STORE, "--remove-stale")
    check(staging_graphs() == [] and r.stderr.count("removed") == 2, f"--remove-stale removes the others: {r.stderr}")
    check(server_graph(graph) == local, "the job's graph is untouched by the removals")

    # Two loads of one job: the later one removes the earlier one's staging graph as stale; the
    # earlier one then fails rather than moving part of the job into place.
    graph = PREFIX + "race"
    p = paused_load(job, graph)
    into(job, extra=("--graph", graph))
    rc, err = finish(p, signal.SIGCONT)
    check(rc == 1 and "removed by another load" in err, f"the earlier load fails: {err.strip()}")
    check(server_graph(graph) == local and staging_graphs() == [], "the job's graph is the later load's, whole")


reset()
{"staging": case_staging}[args.case]()
print("PASS")
