"""Issue 11: a program that rewrites one file in a loop must not grow its provenance, and lineage
must still reach it from what another program read in the middle of the loop.

  rewrite_loop_test.py size ...     10,000 vs 1,000 × (fopen, fwrite 1 byte, fclose), modes "a" and
                                    "w": the provenance written has the same size (a digit or two
                                    of the counts apart), and the file has at most two versions
  rewrite_loop_test.py reader ...   a writer loops, a reader copies the file half way through (the
                                    writer waits on a pipe meanwhile): lineage of the copy reaches
                                    the writer, from the raw files and, with --server-dir, through
                                    prov-merge --into and prov-query --endpoint on the test Virtuoso
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prov_query"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineage_env  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("case", choices=["size", "reader"])
ap.add_argument("--loop", required=True)
ap.add_argument("--preload", required=True)
ap.add_argument("--prov-query")
ap.add_argument("--prov-merge")
ap.add_argument("--server-dir")
ap.add_argument("--work", required=True)
args = ap.parse_args()

work, _ = lineage_env.fresh_work(args.work)
env = lineage_env.clean_env()
env["LD_PRELOAD"] = args.preload


def prov_dir(name):
    return os.path.join(work, "prov", name)


def traced(name, *cmd, **kw):
    return subprocess.run([args.loop, *cmd], env=dict(env, PROVIO_DIR=prov_dir(name)), cwd=work, check=True, **kw)


def bytes_under(d):
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs if f.endswith(".ttl"))


def versions_of(g, path):
    return oracle.q(g, f"SELECT ?v WHERE {{ ?v prov:specializationOf <file://{path}> }}")


def case_size():
    # Truncating a file that ext4 has data for makes its close wait for the disk (auto_da_alloc):
    # milliseconds per "w" cycle. The rewritten file lives in memory when it can.
    files = tempfile.mkdtemp(prefix="provio-rewrite-", dir="/dev/shm" if os.path.isdir("/dev/shm") else work)
    try:
        for mode in ("a", "w"):
            sizes_for_mode(files, mode)
    finally:
        shutil.rmtree(files, ignore_errors=True)


def sizes_for_mode(files, mode):
    sizes = {}
    for cycles in (1000, 10000):
        name = f"{mode}-{cycles}"
        target = os.path.join(files, f"loop-{name}.txt")
        traced(name, "write", target, str(cycles), mode)
        sizes[cycles] = bytes_under(prov_dir(name))
        versions = versions_of(oracle.load([prov_dir(name)]), target)
        check(1 <= len(versions) <= 2, f"mode {mode}, {cycles} cycles: the first and the last version only, "
                                       f"not one per cycle: {len(versions)}")
    print(f"mode {mode}: {sizes[1000]} bytes for 1,000 cycles, {sizes[10000]} for 10,000")
    # The counts, bytes, spans and the version's size gain a digit each; nothing else changes.
    check(abs(sizes[10000] - sizes[1000]) <= 64,
          f"mode {mode}: provenance does not grow with the cycles: {sizes[1000]} vs {sizes[10000]} bytes")


def lineage_programs(rows):
    return sorted(r["name"].split(" (")[0] for r in rows if r["kind"] == "program")


def case_reader():
    target, copy = os.path.join(work, "loop.txt"), os.path.join(work, "copy.txt")
    writer = subprocess.Popen([args.loop, "write", target, "200", "a", "100"], cwd=work, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env=dict(env, PROVIO_DIR=prov_dir("rewrite-loop")))
    check(writer.stdout.readline() == b"paused\n", "the writer pauses half way")
    traced("rewrite-loop", "copy", target, copy)
    writer.stdin.write(b"g")
    writer.stdin.close()
    check(writer.wait() == 0, "the writer finishes")
    with open(copy) as f:
        check(f.read() == "x" * 100, "the copy holds the 100 bytes written before the pause")

    # The version the reader read is one no writer generated (the loop's middle was coalesced)...
    g = oracle.load([prov_dir("rewrite-loop")])
    read = oracle.q(g, f"""SELECT ?v WHERE {{ ?r a provio:Read ; prov:used ?v .
        ?v prov:specializationOf <file://{target}> }}""")
    check(len(read) == 1, f"the reader read one version of loop.txt: {read}")
    generated = oracle.q(g, f"""SELECT ?v WHERE {{ ?v prov:specializationOf <file://{target}> ;
        prov:wasGeneratedBy ?a }}""")
    check(read and read[0][0] not in {r[0] for r in generated},
          f"the version read is not one the writer named: {read} vs {generated}")
    check(len(generated) == 2, f"the writer named two versions, its first and its last: {generated}")

    # ... and lineage attributes it to the writer all the same.
    pq = oracle.Tool(args.prov_query)
    want = ["rewrite_loop copy", "rewrite_loop write"]
    local = lineage_programs(pq.json("lineage", copy, "--up", "--depth", "all", prov_dir("rewrite-loop")))
    check(local == want, f"lineage of the copy reaches the writer (raw files): {local}")
    version = lineage_programs(pq.json("lineage", str(read[0][0]), "--up", prov_dir("rewrite-loop"))) if read else []
    check(version == ["rewrite_loop write"], f"the version read was made by the writer: {version}")
    down = pq.json("lineage", target, "--down", "--depth", "all", prov_dir("rewrite-loop"))
    check(any(r["iri"].startswith(f"file://{copy};v=") for r in down), f"the copy descends from loop.txt: {down}")
    if args.server_dir:
        check(through_server(copy) == want, "lineage of the copy reaches the writer (--endpoint)")


def through_server(copy):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "store_server"))
    import virtuoso  # noqa: E402
    server = virtuoso.info(os.path.abspath(args.server_dir))
    base = f"http://127.0.0.1:{server['http']}"
    tool_env = dict(lineage_env.clean_env(), PROVIO_CREDENTIALS=server["netrc"])

    def run(*cmd):
        r = subprocess.run(cmd, env=tool_env, capture_output=True, text=True, cwd=work)
        if r.returncode != 0:
            sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}\n{r.stdout}\n{r.stderr}")
        return r.stdout

    store = base + "/sparql-graph-crud-auth"
    run(args.prov_merge, "-q", prov_dir("rewrite-loop"), "--into", store)
    try:
        out = json.loads(run(args.prov_query, "lineage", "file://" + copy, "--up", "--depth", "all", "-f", "json",
                             "--endpoint", base + "/sparql"))
    finally:
        run(args.prov_merge, "-q", "--into", store, "--remove", "rewrite-loop")
    rows = [{c: b[c]["value"] for c in out["head"]["vars"] if c in b} for b in out["results"]["bindings"]]
    got = lineage_programs(rows)
    print("through the server:", got)
    return got


case_size() if args.case == "size" else case_reader()
oracle.finish("lineage.rewrite_loop." + args.case)
