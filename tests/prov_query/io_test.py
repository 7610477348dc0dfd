"""prov-query io is exact: io_pattern (2 MPI ranks under the preload library and the VOL connector)
does a known pattern of POSIX, stdio and HDF5 independent and collective I/O (io_pattern.c); the
operation counts, bytes, transfer modes and access-size buckets of `prov-query io -f csv` per file,
per dataset, per rank and per job are exactly the pattern's, at summary and trace level, from the
raw directory, its merged file and its store. The POSIX calls HDF5 made are a layer of their own
(--nested), never in the HDF5 figures. Histograms are exact at both levels: a trace call is one
access of known size, a summary activity carries its buckets (provio:size_<dir>_<bucket>), also
when flushed in many parts (the "parts" run flushes at every call) that prov-merge sums."""
import csv
import html.parser
import io
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, "..")]
import harness  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402
import zstd_raw  # noqa: E402

args = harness.options("--prov-query", "--prov-merge", "--prov-viz", "--io-pattern", "--preload", "--plugins",
                       "--mpiexec", "--work")
work = os.path.realpath(harness.fresh_dir(args.work))
pq, pm = oracle.Tool(args.prov_query), oracle.Tool(args.prov_merge)

BUCKETS = ["0_100", "100_1k", "1k_10k", "10k_100k", "100k_1m", "1m_4m", "4m_10m", "10m_100m", "100m_1g", "1g_plus"]


def sizes(direction, **counts):
    """The ten size_<direction>_* columns: the named buckets' counts, 0 elsewhere."""
    return {f"size_{direction}_{b}": str(counts.get("b" + b, 0)) for b in BUCKETS}


def no_sizes():
    """Unknown access sizes: a summary activity whose buckets are missing or do not add up."""
    return {f"size_{d}_{b}": "" for d in ("read", "write") for b in BUCKETS}


def expected_files(rank):
    """(file, layer) → the columns the pattern fixes for `rank`'s own files."""
    w50 = 3 * (rank + 1)
    posix = {"ranks": "1", "creates": "1", "opens": "1", "writes": str(w50 + 2), "reads": "5", "closes": "2",
             "bytes_written": str(50 * w50 + 10000), "bytes_read": "2200",
             "collective_writes": "0", "independent_writes": "0"}
    stdio = {"ranks": "1", "creates": "1", "opens": "1", "writes": "2", "reads": "2", "closes": "2",
             "bytes_written": "2048", "bytes_read": "2048"}
    posix.update(sizes("write", b0_100=w50, b1k_10k=2) | sizes("read", b0_100=4, b1k_10k=1))
    stdio.update(sizes("write", b100_1k=2) | sizes("read", b100_1k=2))
    return {(f"posix_{rank}.dat", "POSIX"): posix, (f"stdio_{rank}.txt", "STDIO"): stdio}


def expected_shared():
    shared = {"ranks": "2", "writes": "4", "reads": "0", "closes": "2", "bytes_written": "16384",
              "variance_rank_bytes": "16777216"}  # ranks moved 4096 and 12288 bytes
    h5 = {"ranks": "2", "creates": "6", "closes": "6", "writes": "10", "reads": "6",
          "bytes_written": str(2 * (3 * 128 + 2 * 16384)), "bytes_read": str(2 * (2 * 128 + 16384)),
          "collective_writes": "4", "collective_reads": "2", "independent_writes": "6", "independent_reads": "4"}
    shared.update(sizes("write", b1k_10k=4) | sizes("read"))
    h5.update(sizes("write", b100_1k=6, b10k_100k=4) | sizes("read", b100_1k=4, b10k_100k=2))
    return {("shared.dat", "POSIX"): shared, ("data.h5", "HDF5"): h5}


def expected_datasets():
    indep = {"ranks": "2", "creates": "2", "closes": "2", "writes": "6", "reads": "4", "bytes_written": "768",
             "bytes_read": "512", "independent_writes": "6", "independent_reads": "4", "collective_writes": "0",
             "collective_reads": "0"}
    coll = {"ranks": "2", "creates": "2", "closes": "2", "writes": "4", "reads": "2", "bytes_written": "65536",
            "bytes_read": "32768", "collective_writes": "4", "collective_reads": "2", "independent_writes": "0",
            "independent_reads": "0"}
    indep.update(sizes("write", b100_1k=6) | sizes("read", b100_1k=4))
    coll.update(sizes("write", b10k_100k=4) | sizes("read", b10k_100k=2))
    return {("data.h5:/indep", "HDF5"): indep, ("data.h5:/coll", "HDF5"): coll}


def io_rows(by, source, *extra):
    r = pq.run("io", "--by", by, "-f", "csv", *extra, source)
    return list(csv.DictReader(io.StringIO(r.stdout)))


def compare(what, row, want):
    if row is None:
        check(False, f"{what}: no row")
        return
    bad = {k: (row.get(k), v) for k, v in want.items() if row.get(k) != v}
    check(not bad, f"{what}: (got, want) {bad}")


def check_source(level, source):
    tag = f"{level} {os.path.basename(source)}"
    files = {(os.path.basename(r["file"]), r["layer"]): r for r in io_rows("file", source)}
    want = expected_shared()
    for rank in (0, 1):
        want |= expected_files(rank)
    for key, cols in want.items():
        compare(f"{tag} file {key}", files.get(key), cols)
    check(("data.h5", "POSIX in HDF5") not in files and ("data.h5", "POSIX") not in files,
          f"{tag}: the POSIX calls HDF5 made are left out without --nested: {sorted(files)}")
    # Shared file: the fastest and slowest rank are the two ranks, with their own bytes.
    shared = files.get(("shared.dat", "POSIX"), {})
    ends = {(shared.get("fastest_rank"), shared.get("fastest_rank_bytes")),
            (shared.get("slowest_rank"), shared.get("slowest_rank_bytes"))}
    check(ends == {("0", "4096"), ("1", "12288")}, f"{tag}: fastest/slowest rank of shared.dat: {ends}")
    check(float(shared.get("fastest_rank_time") or -1) <= float(shared.get("slowest_rank_time") or -2),
          f"{tag}: fastest rank's time <= slowest's: {shared}")

    nested = {(os.path.basename(r["file"]), r["layer"]): r for r in io_rows("file", source, "--nested")}
    check(nested.get(("data.h5", "HDF5")) == files.get(("data.h5", "HDF5")),
          f"{tag}: --nested leaves the HDF5 figures of data.h5 unchanged")
    inner = nested.get(("data.h5", "POSIX in HDF5"), {})
    check(int(inner.get("bytes_written") or 0) >= 66304,
          f"{tag}: --nested shows HDF5's own POSIX writes of data.h5 as a layer: {inner}")

    datasets = {}
    for r in io_rows("dataset", source):
        path, obj = r["dataset"].split(":", 1)
        datasets[(os.path.basename(path) + ":" + obj, r["layer"])] = r
    for key, cols in expected_datasets().items():
        compare(f"{tag} dataset {key}", datasets.get(key), cols)
    check(set(datasets) == set(expected_datasets()), f"{tag}: datasets {sorted(datasets)}")

    # Per rank: HDF5 and STDIO exactly the rank's; every layer's figures are its files' sums.
    ranks = {(r["rank"], r["layer"]): r for r in io_rows("rank", source)}
    for rank in (0, 1):
        h5 = {k: str(int(v) // 2) for k, v in want[("data.h5", "HDF5")].items()
              if k in ("writes", "reads", "bytes_written", "bytes_read", "collective_writes", "independent_reads")}
        compare(f"{tag} rank {rank} HDF5", ranks.get((str(rank), "HDF5")), h5)
        stdio = {k: v for k, v in want[(f"stdio_{rank}.txt", "STDIO")].items() if k != "ranks"}
        compare(f"{tag} rank {rank} STDIO", ranks.get((str(rank), "STDIO")), stdio)
    jobs = {r["layer"]: r for r in io_rows("job", source) if r["ranks"] == "2"}
    compare(f"{tag} job HDF5", jobs.get("HDF5"), {k: v for k, v in want[("data.h5", "HDF5")].items()})


def raw_statements(prov, prefix):
    """The raw files' lines holding a `prefix` term (":size_", ":partial"), all together."""
    found = []
    for f in zstd_raw.raw_files(prov, recursive=True):
        found += [line for line in zstd_raw.read_text(f).splitlines(True) if prefix in line]
    return found


# "parts": summary level flushing at every call, so that an activity's later calls are parts.
for run_name, level, interval in (("summary", "summary", "30"), ("parts", "summary", "0.000001"),
                                  ("trace", "trace", "30")):
    run = os.path.join(work, run_name)
    os.makedirs(run)
    prov = os.path.join(run, "prov")
    env = dict(harness.clean_env(drop=("PROVIO_", "HDF5_"), mpi=True), PROVIO_DIR=prov, PROVIO_LEVEL=level,
               PROVIO_FLUSH_INTERVAL=interval, LD_PRELOAD=args.preload, HDF5_PLUGIN_PATH=args.plugins,
               HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}")
    cmd = [args.mpiexec, "-n", "2"]
    for name in ("LD_PRELOAD", "PROVIO_DIR", "PROVIO_LEVEL", "PROVIO_FLUSH_INTERVAL", "HDF5_PLUGIN_PATH",
                 "HDF5_VOL_CONNECTOR"):
        cmd += ["-x", name]
    r = subprocess.run([*cmd, args.io_pattern], cwd=run, env=env, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        sys.exit(f"io_pattern ({run_name}) failed: {r.stdout}{r.stderr}")
    if run_name == "parts":
        parts = [line for line in raw_statements(prov, ":size_write_0_100") if "\\/p" in line]
        check(bool(parts), "the parts run writes access sizes in parts of summary activities")
    merged, store = os.path.join(run, "merged.ttl"), os.path.join(run, "store")
    pm.run(prov, "-o", merged, "--store", store)
    for source in (prov, merged, store):
        check_source(run_name, source)



class Tables(html.parser.HTMLParser):
    """The report's tables that have an id: id → (header, rows), cell text unescaped."""

    def __init__(self):
        super().__init__()
        self.tables, self.current, self.cell = {}, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id"):
            self.current = self.tables.setdefault(attrs["id"], [])
        elif self.current is not None and tag == "tr":
            self.current.append([])
        elif self.current is not None and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.current = None
        elif self.cell is not None and tag in ("td", "th"):
            self.current[-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def check_report(source):
    """The report's I/O pages show prov-query io's and flow's cells, column for column."""
    report = os.path.join(work, "report.html")
    oracle.Tool(args.prov_viz).run("report", "-o", report, source)
    parser = Tables()
    with open(report, encoding="utf-8") as f:
        page = f.read()
    parser.feed(page)
    picture = page[page.find('id="flow"'):page.find('id="io-flow"')]
    check("<svg" in picture and "data.h5" in picture and "read by nobody" in picture,
          "the data-flow picture names data.h5, which nobody read")
    for table_id, question in (("io-ranks", ("io", "--by", "rank")), ("io-files", ("io", "--by", "file")),
                               ("io-jobs", ("io", "--by", "job")), ("io-flow", ("flow",))):
        shown = parser.tables.get(table_id)
        check(bool(shown) and len(shown) > 1, f"report table {table_id} is there with rows")
        if not shown:
            continue
        header, rows = shown[0], shown[1:]
        r = pq.run(*question, "-f", "csv", source)
        want = [[row[c] for c in header] for row in csv.DictReader(io.StringIO(r.stdout))]
        check(rows == want, f"report table {table_id} equals {' '.join(question)} -f csv: {rows[:3]} vs {want[:3]}")
    check("io-slowest" in parser.tables, "the report names the slowest rank of the 2-rank job")


def check_bucket_statements():
    """A summary activity of several transfers carrying provio:size_<dir>_<bucket> statements (what
    a summary-level capture writes) shows them; one without, or whose buckets do not add up to its
    count, shows an empty histogram."""
    head = ("@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n@prefix prov: <http://www.w3.org/ns/prov#> .\n"
            "@prefix provio: <http://www.w3.org/ns/provio#> .\n"
            "<urn:provio:run:h:w:1> a prov:Agent, provio:Program ; provio:executable \"/bin/w\" .\n"
            "<urn:provio:run:h:w:1/t0> a prov:Agent, provio:Thread ; prov:actedOnBehalfOf <urn:provio:run:h:w:1> .\n")
    body = ""
    for name, buckets in (("a", {"0_100": 2, "1k_10k": 1}), ("b", {}), ("c", {"0_100": 1})):
        act, f = f"<urn:provio:run:h:w:1/t0/write-{name}>", f"<file:///d/{name}.dat>"
        stated = "".join(f' ; provio:size_write_{b} "{n}"^^xsd:unsignedLong' for b, n in buckets.items())
        body += (f'{f} a prov:Entity, provio:File ; provio:path "/d/{name}.dat" ; prov:wasGeneratedBy {act} ; '
                 f"provio:wasWrittenBy {act} .\n{act} a prov:Activity, provio:Write ; provio:api \"write\" ; "
                 f"prov:wasAssociatedWith <urn:provio:run:h:w:1/t0> ; provio:count \"3\"^^xsd:unsignedLong ; "
                 f'provio:bytes "5100"^^xsd:unsignedLong ; provio:elapsed "0.000001000"^^xsd:double{stated} .\n')
    path = os.path.join(work, "buckets.ttl")
    with open(path, "w") as out:
        out.write(head + body)
    files = {os.path.basename(r["file"]): r for r in io_rows("file", path)}
    compare("bucket statements a.dat", files.get("a.dat"), sizes("write", b0_100=2, b1k_10k=1))
    compare("no bucket statements b.dat", files.get("b.dat"), no_sizes())
    compare("bucket statements short of the count c.dat", files.get("c.dat"), no_sizes())


check_bucket_statements()
check_report(os.path.join(work, "trace", "prov"))
oracle.finish("prov_query_io")
