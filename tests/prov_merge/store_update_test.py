#!/usr/bin/python3
"""Updates of a prov-merge store that must not lose a job (docs/reliability.md, "Stores and outputs
survive concurrent and killed merges"): concurrent merges into one store, a merge killed at the
rename that puts the new store in place (by a preload library that sends SIGKILL exactly there),
the temporaries killed merges leave, and merging an unchanged job again.

  store_update_test.py CASE --merge PROV_MERGE --query PROV_QUERY --record RECORD_EVENTS
                       --kill-at-rename KILL_AT_RENAME.so --work DIR
"""
import os
import signal
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cases  # noqa: E402
import harness  # noqa: E402

ARGS = None
# PROVIO_STORE_FORM stays: ctest runs the cases in each store form.
CLEAN_ENV = {**harness.clean_env(), **{k: v for k, v in os.environ.items() if k == "PROVIO_STORE_FORM"}}


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def run(argv, env=None, expect=None):
    return harness.run(argv, env=env, expect=expect, base=CLEAN_ENV)


def work(name):
    return harness.fresh_dir(os.path.join(ARGS.work, name))


def jobs(d, n):
    """n real jobs (record_events runs), each its own raw directory and program execution."""
    out = []
    for i in range(n):
        raw = os.path.join(d, f"job{i}")
        run([ARGS.record, "--threads", 1, "--events", 2, "--write", os.path.join(d, f"data{i}.h5")],
            env={"PROVIO_DIR": raw}, expect=0)
        out.append(raw)
    return out


def programs(store):
    """The program executions (one per job) the store holds."""
    p = run([ARGS.query, "programs", "-f", "csv", "--store", store], expect=0)
    return len(p.stdout.splitlines()) - 1


def merge_killed(raw, store, when, **env):
    """prov-merge RAW --store STORE, killed (SIGKILL) at the rename that touches STORE."""
    p = run([ARGS.merge, raw, "--store", store, "-o", "/dev/null", "-f", "ntriples", "-q"],
            env={"LD_PRELOAD": ARGS.kill_at_rename, "KILL_AT_RENAME": store, "KILL_AT_RENAME_WHEN": when, **env})
    check(p.returncode == -signal.SIGKILL, f"prov-merge was not killed at the rename ({p.returncode}):\n{p.stderr}")


def leftovers(d, name):
    return sorted(n for n in os.listdir(d) if n.startswith(name + ".") and n != name + ".lock")


def case_concurrent():
    """Defect 4: merges of different jobs into one store at the same time all stay (several rounds)."""
    d = work("concurrent")
    per_round, rounds = 4, 3
    raws = jobs(d, per_round * rounds)
    store = os.path.join(d, "store")
    for r in range(rounds):
        procs = [subprocess.Popen([ARGS.merge, raw, "--store", store, "-o", "/dev/null", "-f", "ntriples", "-q"],
                                  env=CLEAN_ENV, stderr=subprocess.PIPE, text=True)
                 for raw in raws[r * per_round:(r + 1) * per_round]]
        for p in procs:
            err = p.communicate(timeout=120)[1]
            check(p.returncode == 0, f"a concurrent merge failed ({p.returncode}): {err}")
        kept = programs(store)
        check(kept == per_round * (r + 1),
              f"round {r + 1}: the store holds {kept} jobs of {per_round * (r + 1)} merged into it")
    check(leftovers(d, "store") == [], f"left beside the store: {leftovers(d, 'store')}")


def case_killed_swap():
    """Defect 5: a merge killed just before or just after the rename that puts the new store in
    place leaves a whole store; the next merge keeps every earlier job. Without RENAME_EXCHANGE
    (two renames), a kill between them is recovered by the next merge."""
    d = work("killed_swap")
    a, b, c = jobs(d, 3)
    for when, env, expected in (("before", {}, 2), ("after", {}, 3),
                                ("after", {"KILL_AT_RENAME_NO_EXCHANGE": "1"}, 2)):
        store = os.path.join(d, f"store-{when}{'-two-renames' if env else ''}")
        # the first store too is made the way this mode makes it (no exchange: a plain rename)
        run([ARGS.merge, a, "--store", store, "-o", "/dev/null", "-q"], expect=0,
            env={"LD_PRELOAD": ARGS.kill_at_rename, **env})
        merge_killed(b, store, when, **env)
        run([ARGS.merge, c, "--store", store, "-o", "/dev/null", "-q"], expect=0)
        kept = programs(store)
        check(kept == expected, f"killed {when} the rename{' (two renames)' if env else ''}: the store holds "
                                f"{kept} jobs, expected {expected} (the killed merge's job counts only if its "
                                f"store was in place)")
        name = os.path.basename(store)
        check(leftovers(d, name) == [], f"left beside {name}: {leftovers(d, name)}")


def case_dead_temporaries():
    """Defect 11: the temporaries of killed `-o` and `--store` merges are removed by the next run;
    a live process's and another user's are not."""
    d = work("dead_temporaries")
    [raw] = jobs(d, 1)
    out = os.path.join(d, "merged.ttl")
    p = run([ARGS.merge, raw, "-o", out, "-q"],
            env={"LD_PRELOAD": ARGS.kill_at_rename, "KILL_AT_RENAME": out, "KILL_AT_RENAME_WHEN": "before"})
    check(p.returncode == -signal.SIGKILL, f"prov-merge -o was not killed ({p.returncode})")
    dead = [n for n in os.listdir(d) if n.startswith(".merged.ttl.tmp-")]
    check(len(dead) == 1, f"the killed merge left no temporary to clean up: {os.listdir(d)}")
    # a temporary of a live process of this host (this test), and a dead one of another user's
    host = socket.gethostname().replace("-", "_")
    live = os.path.join(d, f".merged.ttl.tmp-{host}-{os.getpid()}-abcdef")
    other = os.path.join(d, f".merged.ttl.tmp-{host}-{dead[0].split('-')[-2]}-ghijkl")
    for f in (live, other):
        open(f, "w").close()
    os.chown(other, 65534, 65534)
    run([ARGS.merge, raw, "-o", out, "-q"], expect=0)
    left = sorted(n for n in os.listdir(d) if n.startswith(".merged.ttl.tmp-"))
    check(left == sorted([os.path.basename(live), os.path.basename(other)]),
          f"after the next merge: {left} (the dead temporary must go, the others stay)")
    store = os.path.join(d, "store")
    run([ARGS.merge, raw, "--store", store, "-o", "/dev/null", "-q"], expect=0)
    merge_killed(raw, store, "before")
    check(len(leftovers(d, "store")) == 1, f"the killed store merge left no temporary: {leftovers(d, 'store')}")
    run([ARGS.merge, raw, "--store", store, "-o", "/dev/null", "-q"], expect=0)
    check(leftovers(d, "store") == [], f"left beside the store: {leftovers(d, 'store')}")


def case_reload():
    """Defect 14: merging a job again into the store (or with the graph merged from it) changes
    nothing and says nothing about "several values": the raw first flush of an activity is
    already in the merged activity's measures."""
    d = work("reload")
    raw = os.path.join(d, "job")
    run([ARGS.record, "--threads", 2, "--events", 3, "--flushes", 2, "--write", os.path.join(d, "data.h5")],
        env={"PROVIO_DIR": raw}, expect=0)
    store, first, again, both = (os.path.join(d, n) for n in ("store", "first.nt", "again.nt", "both.nt"))
    run([ARGS.merge, raw, "--store", store, "-o", first], expect=0)
    for inputs, out in (([raw, "--store", store], again), ([raw, first], both)):
        p = run([ARGS.merge, *inputs, "-o", out], expect=0)
        check("several values" not in p.stderr, f"prov-merge {' '.join(inputs)}: {p.stderr}")
        check(open(out).read() == open(first).read(), f"merging the job again changed the graph ({out})")


def main():
    global ARGS
    ARGS, case = cases.parse(globals(), ["--merge", "--query", "--record", "--kill-at-rename", "--work"])
    os.makedirs(ARGS.work, exist_ok=True)
    case()
    print(f"store_update.{ARGS.case}: ok")


if __name__ == "__main__":
    main()
