"""Crash consistency under SIGKILL (docs/reliability.md): crash_writer runs under the preload
library at trace level with small buffers and is killed with SIGKILL at random moments. After each
kill every raw file must parse on its own, prov-merge must merge them, the merged graph must keep
every Write the raw files hold, the calls lost (made, by the data file's size, minus recorded)
must be at most one buffer, and the merged graph must mark the run incomplete (no-end-time).
    crash_consistency.py <preload> <crash_writer> <prov-merge> [--kills N] [--seed S] [--buffer E]
Prints one line per kill and a summary; exit status 1 if any kill broke the rule."""
import glob
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import rdflib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import raw_graph  # noqa: E402

PIO = rdflib.Namespace("http://www.w3.org/ns/provio#")


def option(args, name, default):
    if name in args:
        i = args.index(name)
        value = args[i + 1]
        del args[i:i + 2]
        return type(default)(value)
    return default


def written_bytes(g, data_iri):
    total = 0
    for act in g.objects(data_iri, PIO.wasWrittenBy):
        total += int(raw_graph.measure(g, act, "bytes"))
    return total


def one_kill(preload, writer, merge, buffer, delay):
    work = tempfile.mkdtemp(prefix="provio-crash-")
    prov = os.path.join(work, "prov")
    env = dict(os.environ, LD_PRELOAD=preload, PROVIO_DIR=prov, PROVIO_LEVEL="trace",
               PROVIO_TRACE_EVENTS=str(buffer))
    p = subprocess.Popen([writer, work], env=env)
    time.sleep(delay)
    p.send_signal(signal.SIGKILL)
    p.wait()
    made = os.path.getsize(os.path.join(work, "data.bin"))
    data_iri = rdflib.URIRef("file://" + os.path.realpath(os.path.join(work, "data.bin")))
    raw = 0
    problems = []
    for f in sorted(glob.glob(os.path.join(prov, "*.ttl"))):
        try:
            g = raw_graph.load(f)
        except Exception as e:  # noqa: BLE001
            problems.append("%s does not parse: %s" % (f, e))
            continue
        raw += written_bytes(g, data_iri)
    merged_file = os.path.join(work, "merged.ttl")
    merged = 0
    if not glob.glob(os.path.join(prov, "*.ttl")):  # killed before its first flush: nothing to merge
        m = subprocess.CompletedProcess([], 0)
    else:
        m = subprocess.run([merge, "-q", prov, "-o", merged_file], stderr=subprocess.PIPE, text=True)
    if m.returncode != 0:
        problems.append("prov-merge failed: " + m.stderr.strip())
    elif os.path.exists(merged_file):
        g = rdflib.Graph().parse(merged_file, format="turtle")
        merged = written_bytes(g, data_iri)
        marked = {str(g.value(n, PIO.reason)) for n in g.objects(None, PIO.incomplete)}
        if "no-end-time" not in marked:
            problems.append("the killed run is not marked incomplete (reasons: %s)" % sorted(marked))
    lost = made - merged
    if merged != raw:
        problems.append("merged graph keeps %d of the %d writes the raw files hold" % (merged, raw))
    if lost < 0 or lost > buffer:
        problems.append("%d calls lost, more than one buffer (%d)" % (lost, buffer))
    shutil.rmtree(work)
    return made, raw, merged, lost, problems


def main():
    args = sys.argv[1:]
    kills = option(args, "--kills", 30)
    seed = option(args, "--seed", 10)
    buffer = option(args, "--buffer", 64)
    preload, writer, merge = args
    rng = random.Random(seed)
    worst, failed = 0, 0
    for k in range(kills):
        delay = rng.uniform(0.05, 0.6)
        made, raw, merged, lost, problems = one_kill(preload, writer, merge, buffer, delay)
        worst = max(worst, lost)
        print("kill %2d after %.3f s: %7d calls made, %7d in raw files, %7d after prov-merge, %4d lost%s"
              % (k + 1, delay, made, raw, merged, lost, "" if not problems else "  FAIL: " + "; ".join(problems)))
        failed += bool(problems)
    print("%d kills, %d broke the rule; every flushed statement kept after prov-merge: %s; "
          "most calls lost in one kill: %d (buffer: %d events)" % (kills, failed, "yes" if failed == 0 else "NO",
                                                                    worst, buffer))
    sys.exit(1 if failed else 0)


main()
