"""Crash consistency under SIGKILL (docs/reliability.md): crash_writer runs under the preload
library at trace level with small buffers and is killed with SIGKILL at random moments. After each
kill every raw file must parse on its own, prov-merge must merge them, the merged graph must keep
every Write the raw files hold, the calls lost (made, by the data file's size, minus recorded)
must be at most one buffer, and the merged graph must mark the run incomplete (no-end-time).
A kill that lands while a flush is being written can cut it: Linux ends a write to a regular file
early, between pages, when a fatal signal is pending. Such a file must parse up to its last
complete line, and prov-merge must report exactly that line as cut (exit status 2: the graph
written, some input damaged) and keep every line before it. A last check cuts a file on purpose,
so that this path runs on every test run, not only when a kill happens to land in a write.
With --compress the raw files are zstd frames (PROVIO_COMPRESS=zstd, "*.ttl.zst"): a kill that lands
in a write cuts a frame, which prov-merge must report by its offset and drop alone, keeping every
frame written whole; the last check cuts the largest file inside its last frame.
    crash_consistency.py <preload> <crash_writer> <prov-merge> [--kills N] [--seed S] [--buffer E]
                         [--compress]
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
import zstd_raw  # noqa: E402

COMPRESS = "--compress" in sys.argv
if COMPRESS:
    sys.argv.remove("--compress")
PATTERN = "*.ttl.zst" if COMPRESS else "*.ttl"

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


def check_merge(merge, prov, data_iri, made, buffer):
    """The rule for one killed run's raw files: (writes in raw files, after prov-merge, lost, problems)."""
    raw = 0
    problems = []
    expected = set()  # prov-merge's messages for files cut mid-line, exactly
    for f in sorted(glob.glob(os.path.join(prov, PATTERN))):
        try:
            g, cut = load_complete(f)
        except Exception as e:  # noqa: BLE001
            problems.append("%s does not parse: %s" % (f, e))
            continue
        if cut is not None and COMPRESS:
            expected.add("prov-merge: %s: truncated zstd frame at byte %d dropped (file ends mid-frame)" % (f, cut))
        elif cut:
            expected.add("prov-merge: %s:%d: truncated statement dropped (file ends mid-line)" % (f, cut))
        raw += written_bytes(g, data_iri)
    merged_file = os.path.join(os.path.dirname(prov), "merged.ttl")
    merged = 0
    if not glob.glob(os.path.join(prov, PATTERN)):  # killed before its first flush: nothing to merge
        m = subprocess.CompletedProcess([], 0, stderr="")
    else:
        m = subprocess.run([merge, "-q", prov, "-o", merged_file], stderr=subprocess.PIPE, text=True)
    reported = set(m.stderr.splitlines())
    if m.returncode != (2 if expected else 0) or reported != expected:
        problems.append("prov-merge exited %d saying %s, expected %s" % (m.returncode, sorted(reported),
                                                                        sorted(expected) or "nothing"))
    elif os.path.exists(merged_file):
        g = rdflib.Graph().parse(merged_file, format="turtle")
        merged = written_bytes(g, data_iri)
        marked = {str(g.value(n, PIO.reason)) for n in g.objects(None, PIO.incomplete)}
        if "no-end-time" not in marked:
            problems.append("the killed run is not marked incomplete (reasons: %s)" % sorted(marked))
    lost = made - merged
    if merged != raw:
        problems.append("merged graph keeps %d of the %d writes the raw files hold" % (merged, raw))
    # A cut flush was being written by the background writer while the thread filled its next
    # buffer: then up to two buffers are lost, else up to one.
    allowed = buffer * (2 if expected else 1)
    if lost < 0 or lost > allowed:
        problems.append("%d calls lost, more than %d" % (lost, allowed))
    return raw, merged, lost, problems


def load_complete(path):
    """A raw file's graph from what a reader can keep of it (complete lines; compressed: the frames
    written whole), and where it was cut (the last line's number; compressed: the cut frame's
    offset), else None."""
    if not COMPRESS:
        return raw_graph.load_complete_lines(path)
    text, cut = zstd_raw.complete_text(path)
    if not text.endswith(b"\n") and text:
        raise ValueError("a frame ends mid-line")
    g = rdflib.Graph()
    g.parse(data=text.decode("utf-8"), format="turtle")
    return raw_graph.complete(g), cut


def cut_last_line(prov):
    """Cuts the largest raw file in the middle of its last line (compressed: of its last frame), as
    a kill during a flush's write leaves it; returns a description, or None when there is no file
    to cut."""
    files = sorted(glob.glob(os.path.join(prov, PATTERN)), key=os.path.getsize)
    if not files:
        return None
    with open(files[-1], "rb") as f:
        data = f.read()
    if COMPRESS:
        last = zstd_raw.split(data)[0][-1][0]  # the last frame's first byte
    else:
        last = data.rstrip(b"\n").rfind(b"\n") + 1  # the last line's first byte
    cut_at = last + (len(data) - last) // 2
    with open(files[-1], "wb") as f:
        f.write(data[:cut_at])
    return "%s cut at byte %d of %d" % (os.path.basename(files[-1]), cut_at, len(data))


def one_kill(preload, writer, merge, buffer, delay, cut=False):
    """Runs the writer, kills it after `delay` s (with `cut`, then cuts a raw file mid-line) and
    checks the rule."""
    work = tempfile.mkdtemp(prefix="provio-crash-")
    prov = os.path.join(work, "prov")
    env = dict(os.environ, LD_PRELOAD=preload, PROVIO_DIR=prov, PROVIO_LEVEL="trace",
               PROVIO_TRACE_EVENTS=str(buffer), PROVIO_COMPRESS="zstd" if COMPRESS else "none")
    p = subprocess.Popen([writer, work], env=env)
    time.sleep(delay)
    p.send_signal(signal.SIGKILL)
    p.wait()
    made = os.path.getsize(os.path.join(work, "data.bin"))
    data_iri = rdflib.URIRef("file://" + os.path.realpath(os.path.join(work, "data.bin")))
    what = cut_last_line(prov) if cut else None
    raw, merged, lost, problems = check_merge(merge, prov, data_iri, made, buffer)
    if cut and not what:
        problems.append("the run left no raw file to cut")
    shutil.rmtree(work)
    return made, raw, merged, lost, problems, what


def main():
    args = sys.argv[1:]
    kills = option(args, "--kills", 30)
    seed = option(args, "--seed", 10)
    buffer = option(args, "--buffer", 64)
    preload, writer, merge = args
    rng = random.Random(seed)
    worst, failed = 0, 0
    for k in range(kills + 1):
        delay = rng.uniform(0.05, 0.6) if k < kills else 0.4
        cut = k == kills  # the last run: a file cut on purpose
        made, raw, merged, lost, problems, what = one_kill(preload, writer, merge, buffer, delay, cut)
        worst = max(worst, lost)
        print("%s after %.3f s: %7d calls made, %7d in raw files, %7d after prov-merge, %4d lost%s"
              % ("kill %2d" % (k + 1) if not cut else "cut (%s), killed" % what, delay, made, raw, merged, lost,
                 "" if not problems else "  FAIL: " + "; ".join(problems)))
        failed += bool(problems)
    print("%d kills and a cut file, %d broke the rule; every flushed statement kept after prov-merge: %s; "
          "most calls lost in one kill: %d (buffer: %d events)" % (kills, failed, "yes" if failed == 0 else "NO",
                                                                    worst, buffer))
    sys.exit(1 if failed else 0)


main()
