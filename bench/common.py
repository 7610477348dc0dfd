"""What the Python benchmarks of bench/ share: where the build is, their common arguments, one
command timed by GNU time, rounds interleaved across configurations, medians, and bench/query's
synthetic graph. How far a paired median can be trusted is paired_stats.py's.

  import common                  # after sys.path.insert(0, <bench/>)
  ap = common.parser(__doc__, runs=3)
  t = common.timed([prov_merge, ...])       # Timing(wall, cpu, peak_mb, stderr)
  print(common.summary([t, ...]))           # median wall and CPU, largest peak
"""
import argparse
import collections
import os
import statistics
import subprocess
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
BUILD = os.path.join(ROOT, os.environ.get("PROVIO_BUILD_DIR", "build"))

Timing = collections.namedtuple("Timing", "wall cpu peak_mb stderr")
Summary = collections.namedtuple("Summary", "wall cpu peak_mb runs")


def name():
    """The running benchmark as bench/run knows it (bench/merge, bench/store/load_ways), for messages."""
    path = os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)
    return path[:-len("/run")] if path.endswith("/run") else path


def built(*parts, build=BUILD):
    """The path of a built file (tools/prov-merge/prov-merge), or exit saying to build it."""
    path = os.path.join(build, *parts)
    if not os.path.exists(path):
        sys.exit(f"{name()}: {path} not built (scripts/build.sh)")
    return path


def tool(tool_name, build=BUILD):
    """A provio tool of the build: prov-merge, prov-query, prov-viz, prov-run."""
    return built("tools", tool_name, tool_name, build=build)


def parser(doc, runs=3):
    """An argument parser whose --help is the script's docstring, with --runs (repetitions per
    measurement, the median reported) defaulting to `runs`; none for a deterministic count (None)."""
    ap = argparse.ArgumentParser(prog="bench/run " + name()[len("bench/"):], description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    if runs is not None:
        ap.add_argument("--runs", type=int, default=runs, help=f"repetitions of each measurement (default {runs})")
    return ap


def fail(text):
    sys.exit(f"{name()}: {text}")


def start_timed(cmd, stdin=None, env=None, stdout=None):
    """`cmd` started under GNU time, its stdout into the file `stdout` (else discarded); finish_timed()
    collects it."""
    with open(stdin or os.devnull, "rb") as inp, open(stdout or os.devnull, "wb") as out:
        return subprocess.Popen(["/usr/bin/time", "-f", "@@%e %U %S %M", *cmd], stdin=inp, stdout=out,
                                stderr=subprocess.PIPE, text=True, env=env)


def finish_timed(proc, timeout=None):
    """Timing(wall s, CPU s (user + sys), peak MB, stderr) of a started command, or None when it ran
    past `timeout` seconds (then it is killed). A failing command ends the benchmark with its stderr."""
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    if proc.returncode != 0:
        fail(f"{' '.join(proc.args[3:])} failed:\n{err}")
    wall, user, system, kb = [l for l in err.splitlines() if l.startswith("@@")][-1][2:].split()
    return Timing(float(wall), float(user) + float(system), int(kb) / 1024, err)


def timed(cmd, stdin=None, env=None, timeout=None, stdout=None):
    """One run of `cmd` under GNU time: Timing, or None past `timeout` (finish_timed)."""
    return finish_timed(start_timed(cmd, stdin, env, stdout), timeout)


def summary(samples):
    """Median wall and CPU seconds and the largest peak of several Timings (or tuples in that order)."""
    return Summary(statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples),
                   max(s[2] for s in samples), len(samples))


def repeat(runs, cmd, **kw):
    """`cmd` timed `runs` times; None if any run passed its timeout."""
    samples = []
    for _ in range(runs):
        t = timed(cmd, **kw)
        if t is None:
            return None
        samples.append(t)
    return samples


def interleaved(runs, configs, once):
    """Rounds interleaved across configurations (a, b, c, a, b, c, …), so that a slow phase of a
    shared machine hits every configuration alike: {config: [once(config) of each round]}."""
    results = {c: [] for c in configs}
    for _ in range(runs):
        for c in configs:
            results[c].append(once(c))
    return results


def medians(samples):
    """{key: median} of a list of {key: value} dicts (one per round)."""
    return {k: statistics.median(s[k] for s in samples) for k in samples[0]}


def process_cpu(pid):
    """CPU seconds (user + sys) another process (a server) has used so far, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def query_graph(out, triples, length=None, datasets=None, first_chain=None):
    """bench/query/gen.py's synthetic merged graph into `out`: (chains, triples written, IRI of the
    last file of the first chain)."""
    cmd = [sys.executable, os.path.join(BENCH, "query", "gen.py"), out, "--triples", str(triples)]
    for flag, value in (("--length", length), ("--datasets", datasets), ("--first-chain", first_chain)):
        if value is not None:
            cmd += [flag, str(value)]
    chains, written, root = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()
    return int(chains), int(written), root
