"""prov-merge --into and prov-query --endpoint against a real SPARQL 1.1 server (the private
Virtuoso of virtuoso.py). Real programs record provenance; the server's graphs and answers must
equal the local merge and the local answers of the same jobs.

  store_test.py CASE --server-dir D --merge M --query Q --record R --a A --b B --c C --work W
CASE: load (load, reload, incremental fold, chunks, removal), questions (every question vs the
local answer), concurrent (parallel loads and queries while loading), failures (server down,
HTTP 500, bad credentials)."""
import base64
import decimal
import http.server
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import urllib.request

from store_common import *  # noqa: E402,F401,F403

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402


def case_load():
    jobs = scenario()
    r = into(os.path.join(work, "prov"))
    for j in jobs:
        name = os.path.basename(j)
        check(server_graph(name) == local_graph(j), f"{name}: the server's graph equals the local merge")
    check("unchanged" not in r.stderr and "requests" in r.stderr, "first load reports what it sent")
    before = {os.path.basename(j): server_graph(os.path.basename(j)) for j in jobs}
    r = into(os.path.join(work, "prov"))
    check(r.stderr.count("unchanged") == 3, f"loading the same jobs again changes nothing: {r.stderr}")
    check("several values" not in r.stderr, f"loading the same jobs again reports nothing: {r.stderr}")
    check(all(server_graph(n) == g for n, g in before.items()), "graphs identical after the reload")

    # Incremental fold: a snapshot of job3 cut after each file's second flush, then the full files.
    snap = os.path.join(work, "snap", PREFIX + "job3")
    os.makedirs(snap)
    for f in zstd_raw.raw_files(jobs[2]):
        lines = zstd_raw.read_text(f).splitlines(True)
        cut = max(i for i, l in enumerate(lines) if re.search(r"/p2(?![0-9])", l))  # a part of flush 2
        open(os.path.join(snap, os.path.basename(f).removesuffix(".zst")), "w").write("".join(lines[:cut + 1]))
    into(snap, extra=("--graph", PREFIX + "fold"))
    check(server_graph(PREFIX + "fold") == local_graph(snap), "the snapshot loads as its local merge")
    into(jobs[2], extra=("--graph", PREFIX + "fold"))
    check(server_graph(PREFIX + "fold") == local_graph(jobs[2]), "snapshot + full files fold to the direct merge")

    # Bounded chunks: a staging graph moved into place, nothing left behind.
    r = into(jobs[1], extra=("--graph", PREFIX + "chunked", "--chunk", "10"))
    check(server_graph(PREFIX + "chunked") == local_graph(jobs[1]), "a graph sent in chunks of 10 triples is whole")
    n = int(r.stderr.split(" requests")[0].rsplit(" ", 1)[1])
    check(n == (len(local_graph(jobs[1])) + 9) // 10, f"one request per 10 triples ({n})")
    check(not [g for g in graphs() if "staging" in g], "no staging graph left")
    # On a terminal (script(1) gives it one), progress is shown while chunks go out.
    if shutil.which("script"):
        cmd = f"{args.merge} {jobs[0]} --into {STORE} --graph {PREFIX}tty --chunk 10"
        r = run("script", "-qec", cmd, "/dev/null")
        check("triples sent" in r.stdout, f"progress on a terminal: {r.stdout.strip()[-120:]!r}")

    # Removal touches one job only.
    r = run(args.merge, "--into", STORE, "--remove", PREFIX + "chunked")
    check(server_graph(PREFIX + "chunked") == set(), "removed job's graph is gone")
    check(server_graph(PREFIX + "job2") == before[PREFIX + "job2"], "other jobs untouched by the removal")
    r = run(args.merge, "--into", STORE, "--remove", PREFIX + "nosuchjob", expect=2)
    check("no such job" in r.stderr, f"removing an unknown job is reported: {r.stderr.strip()}")


PROGRAM = """@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix provio: <http://www.w3.org/ns/provio#> .
<urn:provio:run:h:NAME:1> a prov:Agent, provio:Program ; provio:executable "/bin/NAME" .
<urn:provio:run:h:NAME:1/thread/0> a prov:Agent, provio:Thread ; prov:actedOnBehalfOf <urn:provio:run:h:NAME:1> .
"""


def write_program(path, name, body):
    """A hand-written graph: program execution NAME (one thread) and `body`, statements about it."""
    open(path, "w").write(PROGRAM.replace("NAME", name) + body)


def workflow(path):
    """Hyperparameter settings, validation metrics and checkpoints (docs/workflow-api.md), one
    loaded under another setting."""
    x = "urn:provio:run:h:train:1"
    t = ""
    for n, (lr, acc) in enumerate([(0.1, 0.81), (0.01, 0.93), (0.001, 0.88)]):
        T, C = f"<{x}/task/{n}>", f"<{x}/config/{n}>"
        t += (f"{T} a prov:Activity, provio:Task ; rdfs:label \"train{n}\" ; prov:wasAssociatedWith <{x}/thread/0> ; prov:used {C} .\n"
              f"{C} a prov:Entity, provio:Configuration, provio:HyperparameterSetting ; rdfs:label \"hp{n}\" ; prov:wasAttributedTo <{x}> ; provio:parameter <{x}/config/{n}/lr> .\n"
              f"<{x}/config/{n}/lr> a provio:Parameter ; provio:key \"lr\" ; provio:value \"{lr}\"^^xsd:double .\n"
              f"<{x}/metric/{n}> a prov:Entity, provio:Metric ; provio:metricName \"accuracy\" ; provio:value \"{acc}\"^^xsd:double ; provio:step \"5\"^^xsd:long ; prov:wasGeneratedBy {T} ;\n"
              f"  provio:stage provio:Validation ; prov:generatedAtTime \"2026-01-01T00:00:0{n}Z\"^^xsd:dateTime .\n"
              f"<{x}/model/{n}> a prov:Entity, provio:ModelReference ; provio:storedIn <file:///d/ckpt{n}.h5> ; provio:trainedWith {C} ; prov:wasGeneratedBy {T} ;\n"
              f"  prov:generatedAtTime \"2026-01-01T00:00:0{n}Z\"^^xsd:dateTime .\n")
    t += (f"<{x}/task/9> a prov:Activity, provio:Task ; prov:wasAssociatedWith <{x}/thread/0> ; prov:used <file:///d/ckpt1.h5>, <{x}/config/0> ;\n"
          f"  prov:startedAtTime \"2026-01-01T00:01:00Z\"^^xsd:dateTime .\n")
    write_program(path, "train", t)


def many_activities(path, n=1200):
    """One program writing n datasets of one file: more facts of one kind than a round fetches
    key by key, so the server's graph fetches whole predicates (remote_graph.cc)."""
    x = "urn:provio:run:h:many:1"
    f = f"file://{work}/many.h5"
    t = f"<{f}> a prov:Entity, provio:File ; provio:path \"{work}/many.h5\" .\n"
    for i in range(n):
        d, a = f"<{f}#/d{i}>", f"<{x}/thread/0/H5Dwrite/Write/e{i}>"
        t += (f"{d} a prov:Entity, provio:Dataset ; provio:objectPath \"/d{i}\" ; provio:inFile <{f}> ; "
              f"prov:wasGeneratedBy {a} ; provio:wasWrittenBy {a} .\n"
              f"{a} a prov:Activity, provio:Write ; provio:api \"H5Dwrite\" ; prov:wasAssociatedWith <{x}/thread/0> ; "
              f"provio:count \"{i % 7 + 1}\"^^xsd:unsignedLong ; provio:bytes \"{i * 8}\"^^xsd:unsignedLong ; "
              f"provio:elapsed \"0.{i:09d}\"^^xsd:double .\n")
    write_program(path, "many", t)


def attributes(path):
    """HDF5 attributes of a dataset and of a file, written, and a version read: the file of an
    attribute is its owner's file (provio:attributeOf), of a version the file it specialises,
    which the server computes for stats, files, objects."""
    x = "urn:provio:run:h:attrs:1"
    f = f"file://{work}/attrs.h5"
    t = (f"<{f}> a prov:Entity, provio:File ; provio:path \"{work}/attrs.h5\" .\n"
         f"<{f}#/d> a prov:Entity, provio:Dataset ; provio:objectPath \"/d\" ; provio:inFile <{f}> .\n")
    for i, (owner, name) in enumerate(((f"{f}#/d", "units"), (f, "title"))):
        e, a = f"<{owner}@{name}>", f"<{x}/thread/0/H5Awrite/Write/a{i}>"
        t += (f"{e} a prov:Entity, provio:Attribute ; provio:name \"{name}\" ; provio:attributeOf <{owner}> ; "
              f"prov:wasGeneratedBy {a} ; provio:wasWrittenBy {a} .\n"
              f"{a} a prov:Activity, provio:Write ; provio:api \"H5Awrite\" ; prov:wasAssociatedWith <{x}/thread/0> ; "
              f"provio:count \"{i + 1}\"^^xsd:unsignedLong ; provio:bytes \"{8 << i}\"^^xsd:unsignedLong ; "
              f"provio:elapsed \"0.00000{i + 1}\"^^xsd:double .\n")
    # An activity whose only entity is a version it used (no class relation): its file is the one
    # the version specialises.
    v, a = f"<{f};v=1700000000.000000001-1-2>", f"<{x}/thread/0/pread/e9>"
    t += (f"{v} a prov:Entity, provio:Version ; prov:specializationOf <{f}> .\n"
          f"{a} a prov:Activity ; provio:api \"pread\" ; prov:used {v} ; prov:wasAssociatedWith <{x}/thread/0> ; "
          f"provio:count \"3\"^^xsd:unsignedLong ; provio:bytes \"96\"^^xsd:unsignedLong .\n")
    write_program(path, "attrs", t)


def by_value(csv_row):
    """A CSV row with every number in one spelling."""
    def cell(text):
        try:
            return str(decimal.Decimal(text).normalize())
        except decimal.InvalidOperation:
            return text
    return ",".join(cell(c) for c in csv_row.split(","))


def case_questions():
    jobs = scenario()
    wf = os.path.join(work, PREFIX + "workflow.ttl")
    workflow(wf)
    many = os.path.join(work, PREFIX + "many.ttl")
    many_activities(many)
    attrs = os.path.join(work, PREFIX + "attrs.ttl")
    attributes(attrs)
    # A real POSIX program: cp under the POSIX library (elapsed sums of doubles such as 4.254e-05 s,
    # which an engine rounding doubles to ns loosely gets 1 ns wrong).
    with open(os.path.join(work, "original.txt"), "w") as f:
        f.write("data\n")
    copy = os.path.join(work, "prov", PREFIX + "copy")
    run("cp", "original.txt", "copy.txt", env=dict(ENV, LD_PRELOAD=args.preload, PROVIO_DIR=copy))
    jobs.append(copy)
    into(*jobs, wf, many, attrs)
    merged = os.path.join(work, "all.ttl")
    run(args.merge, "-q", *jobs, wf, many, attrs, "-o", merged)
    check(all(t in open(merged).read() for t in ("specializationOf", "attributeOf", "inFile")),
          "the graph has entities in files, versions and attributes")
    # Other cases' jobs share the server: compare on this case's files and programs only.
    questions = [["stats", "--by", by] for by in ("api", "file", "object", "rank", "thread", "program")]
    questions += [["stats", "--nested"], ["programs"], ["files"], ["objects", "WestSac.h5"], ["objects", "decimate.h5"],
                  ["configs"], ["metrics"], ["best", "--metric", "accuracy", "-k", "2"],
                  ["best", "--metric", "accuracy", "--min"], ["checkpoints"],
                  ["select", "--project", "api,file,bytes", "--sort", "api,file"],
                  ["select", "--agg", "sum:bytes,count:*", "--group-by", "api", "--sort", "api"],
                  ["sparql", "-e", "SELECT ?p ?x WHERE { ?p a provio:Program ; provio:executable ?x }"],
                  ["sparql", "-e", "CONSTRUCT { ?m provio:value ?v } WHERE { ?m a provio:Metric ; provio:value ?v }"],
                  ["sparql", "-e", "ASK { ?s a provio:Metric }"], ["sparql", "-e", "ASK { ?s a provio:Nothing }"]]
    # SPARQL 1.1 (issue 32): the reproductions and the shipped questions, on the server's
    # engine and on prov-query's own (Oxigraph).
    questions += [["sparql", "-e", "SELECT DISTINCT ?e ?who WHERE { ?e prov:wasGeneratedBy ?a . "
                   "?a prov:wasAssociatedWith/prov:actedOnBehalfOf+ ?who }"],
                  ["sparql", "-e", "SELECT ?e WHERE { ?e a prov:Entity FILTER NOT EXISTS { ?a prov:used ?e } }"],
                  ["sparql", "-e", "SELECT ?api (SUM(?b) AS ?bytes) (SUM(?c) AS ?calls) WHERE { "
                   "?a provio:api ?api ; provio:bytes ?b ; provio:count ?c } GROUP BY ?api"]]
    shipped = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "share", "provio", "queries")
    questions += [["sparql", os.path.join(shipped, rq)] for rq in sorted(os.listdir(shipped))]
    questions += [["objects", "many.h5"], ["select", "--filter", "file=~many", "--sort", "-bytes", "--limit", "5"]]
    questions += [["objects", "attrs.h5"]]
    # select's aggregates over groupable fields are summed by the server (min, max, mean too).
    questions += [["select", "--agg", "sum:bytes,count:*,mean:elapsed,min:elapsed,max:bytes,min:count,max:count",
                   "--group-by", "program", "--sort", "program"],
                  ["select", "--agg", "sum:bytes,max:elapsed,mean:bytes", "--group-by", "op,file",
                   "--filter", "api=~write|read|H5", "--filter", "file!=nothing", "--sort", "-sum_bytes,file", "--limit", "4"],
                  ["select", "--agg", "count:*,mean:count", "--group-by", "object,rank", "--sort", "object,rank"],
                  ["select", "--agg", "sum:bytes,count:*", "--group-by", "api,thread", "--nested", "--sort", "api,thread"],
                  ["select", "--agg", "max:bytes", "--filter", "program=~attrs", "--filter", "op=Write"]]
    for f in ("WestSac.h5", "decimate.h5", "detections.csv", "WestSac.h5:/das/strain", "raw.h5", "many.h5"):
        for way in ("--up", "--down"):
            for depth in ("1", "all"):
                questions.append(["lineage", f, way, "--depth", depth])
    for qn in questions:
        local = run(args.query, *qn, "-f", "csv", merged).stdout
        remote = run(args.query, *qn, "-f", "csv", "--endpoint", ENDPOINT).stdout
        local_rows, remote_rows = local.splitlines(), remote.splitlines()
        if qn[0] == "sparql":
            # Raw SPARQL runs on the server's engine, which picks its own row order (and Virtuoso 7
            # orders long strings its own way even under ORDER BY): compare the rows as sets.
            # Engines spell numbers their own way (Virtuoso 755412.0, Oxigraph 755412): compare
            # numbers by value.
            local_rows, remote_rows = local_rows[:1] + sorted(map(by_value, local_rows[1:])), \
                remote_rows[:1] + sorted(map(by_value, remote_rows[1:]))
        # Every answer but the ends of the lineage chain (nothing below detections.csv) has rows.
        check(local_rows == remote_rows and (len(local_rows) > 1 or qn[0] == "lineage"), f"{' '.join(qn)}: the server's answer is the local one"
              + ("" if local_rows == remote_rows else f"\n--- local\n{local}\n--- server\n{remote}"))
    # prov-viz draws from the server what it draws from the local merge (the report's title
    # names its input).
    for what in (["lineage", "decimate.h5", "--both", "-o", "L.dot"], ["lineage", "many.h5", "-o", "L.dot"],
                 ["report", "-o", "L.html"]):
        run(args.viz, *what, merged)
        local = open(os.path.join(work, what[-1])).read().replace(merged, "INPUT")
        run(args.viz, *what, "--endpoint", ENDPOINT)
        remote = open(os.path.join(work, what[-1])).read().replace(ENDPOINT, "INPUT")
        check(local == remote and len(local) > 500, f"prov-viz {' '.join(what[:-2])}: drawn from the server as from the local merge")


def case_concurrent():
    jobs = scenario()
    procs = [subprocess.Popen([args.merge, j, "--into", STORE], env=ENV, stderr=subprocess.PIPE, text=True) for j in jobs]
    # queries while loading: each must succeed
    while any(p.poll() is None for p in procs):
        run(args.query, "stats", "--endpoint", ENDPOINT)
        run(args.query, "lineage", "file://" + os.path.join(work, "decimate.h5"), "--endpoint", ENDPOINT, expect=None)
    check(all(p.wait() == 0 for p in procs), "three parallel loads succeed")
    for j in jobs:
        check(server_graph(os.path.basename(j)) == local_graph(j), f"{os.path.basename(j)}: parallel load = local merge")
    merged = os.path.join(work, "all.ttl")
    run(args.merge, "-q", *jobs, "-o", merged)
    for f in ("decimate.h5", "WestSac.h5"):
        local = run(args.query, "lineage", f, "--down", "-f", "csv", merged).stdout
        remote = run(args.query, "lineage", f, "--down", "-f", "csv", "--endpoint", ENDPOINT).stdout
        check(local == remote, f"lineage {f} after parallel loads = local")


class Answering(http.server.BaseHTTPRequestHandler):
    """Answers every request with the server's `status` (with Retry-After when `after` is set),
    counting the requests."""
    def do_any(self):
        self.server.requests += 1
        body = b"Internal trouble\n"
        self.send_response(self.server.status)
        if self.server.after is not None:
            self.send_header("Retry-After", str(self.server.after))
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_GET = do_POST = do_PUT = do_any

    def log_message(self, *a):
        pass


def answering(status, after=None):
    srv = http.server.HTTPServer(("127.0.0.1", 0), Answering)
    srv.status, srv.after, srv.requests = status, after, 0
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}"


def silent_server():
    """A server that accepts connections and reads requests but never answers; the number of
    connections it took."""
    sock = socket.create_server(("127.0.0.1", 0))
    taken = []

    def serve():
        while True:
            conn, _ = sock.accept()
            taken.append(conn)  # held open, never answered

    threading.Thread(target=serve, daemon=True).start()
    return taken, f"http://127.0.0.1:{sock.getsockname()[1]}"


def case_failures():
    jobs = scenario()
    before = {f: open(os.path.join(d, f), "rb").read() for d in jobs for f in os.listdir(d)}
    # A server that is down: a free port nobody listens on.
    down = f"http://127.0.0.1:{virtuoso.free_port()}"
    r = run(args.merge, jobs[0], "--into", down + "/sparql-graph-crud-auth", expect=1)
    check("Couldn't connect" in r.stderr and "retrying" in r.stderr and "after 5 tries" in r.stderr,
          f"server down: retried with backoff, then a clear error: {r.stderr.strip().splitlines()[-1]}")
    r = run(args.query, "stats", "--endpoint", down + "/sparql", expect=2)
    check("Couldn't connect" in r.stderr, f"prov-query, server down: {r.stderr.strip()}")
    # Answers a retry cannot cure fail at once, with the server's message: one request each.
    for status, after in ((500, None), (400, None), (404, None), (503, None), (429, None)):
        srv, bad = answering(status, after)
        r = run(args.merge, jobs[0], "--into", bad + "/sparql-graph-crud-auth", expect=1)
        check(f"HTTP {status}: Internal trouble" in r.stderr and "retrying" not in r.stderr and srv.requests == 1,
              f"HTTP {status}: not retried ({srv.requests} request), clear error, exit 1: {r.stderr.strip().splitlines()[-1]}")
        srv.requests = 0
        r = run(args.query, "programs", "--endpoint", bad + "/sparql", expect=2)
        check(f"HTTP {status}" in r.stderr and srv.requests == 1, f"prov-query, HTTP {status}: {r.stderr.strip()}")
        srv.shutdown()
    # Answers a retry can cure are retried: a gateway's, and a busy server's that says when.
    for status, after in ((502, None), (503, 0), (429, 1)):
        srv, bad = answering(status, after)
        r = run(args.merge, jobs[0], "--into", bad + "/sparql-graph-crud-auth", expect=1)
        wait = f"retrying in {after} s" if after is not None else "retrying in 0.25 s"
        check(wait in r.stderr and "after 5 tries" in r.stderr and srv.requests == 5,
              f"HTTP {status}{'' if after is None else ' Retry-After: ' + str(after)}: retried ({srv.requests} requests): "
              + r.stderr.strip().splitlines()[-1])
        srv.shutdown()
    # A server that takes the request and never answers: the request fails once the stall limit
    # passes, is not retried, and the tool ends with a clear message instead of hanging.
    taken, silent = silent_server()
    stall = dict(ENV, PROVIO_HTTP_TIMEOUT="2")
    r = run(args.query, "programs", "--endpoint", silent + "/sparql", expect=2, env=stall, timeout=60)
    check("no answer for 2 s" in r.stderr and len(taken) == 1, f"prov-query, stalled server: {r.stderr.strip()}")
    r = run(args.merge, jobs[0], "--into", silent + "/sparql-graph-crud-auth", expect=1, env=stall, timeout=60)
    check("no answer for 2 s" in r.stderr and len(taken) == 2, f"prov-merge, stalled server: {r.stderr.strip()}")
    r = run(args.query, "programs", "--endpoint", silent + "/sparql", expect=2,
            env=dict(ENV, PROVIO_HTTP_TIMEOUT="soon"))
    check("PROVIO_HTTP_TIMEOUT: expected whole seconds" in r.stderr, f"malformed limit: {r.stderr.strip()}")
    after = {f: open(os.path.join(d, f), "rb").read() for d in jobs for f in os.listdir(d)}
    check(before == after, "nothing lost locally: the raw files are untouched")
    # Credentials: wrong password refused; a credentials file others can read refused.
    wrong = os.path.join(work, "wrong")
    with open(os.open(wrong, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write("machine 127.0.0.1 login dba password nope\n")
    r = run(args.merge, jobs[0], "--into", STORE, "--credentials", wrong, expect=1)
    check("HTTP 401" in r.stderr, f"wrong password: {r.stderr.strip().splitlines()[-1]}")
    os.chmod(wrong, 0o644)
    r = run(args.merge, jobs[0], "--into", STORE, "--credentials", wrong, expect=1)
    check("readable by others" in r.stderr, f"world-readable credentials refused: {r.stderr.strip()}")
    r = run(args.merge, jobs[0], "--into", STORE, "--credentials", os.path.join(work, "missing"), expect=1)
    check("cannot read credentials" in r.stderr, f"missing credentials file: {r.stderr.strip()}")
    # The password is on no command line and in no provenance the tools write.
    check(not any(b"dba" in v for v in after.values()), "no credential in the provenance files")


class BasicProxy(http.server.BaseHTTPRequestHandler):
    """HTTP basic authentication in front of the server's /sparql, as a centre's TLS-terminating
    proxy would put it (Virtuoso itself offers only digest). Counts the requests that carried
    credentials and those that carried the right ones."""
    def do_any(self):
        sent = self.headers.get("Authorization")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if sent:
            self.server.sent += 1
        if sent != "Basic " + self.server.expected:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="provio test"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.server.good += 1
        req = urllib.request.Request(ENDPOINT + self.path[len("/sparql"):], body, method=self.command,
                                     headers={k: v for k, v in self.headers.items()
                                              if k.lower() in ("content-type", "accept")})
        with urllib.request.urlopen(req) as r:
            data = r.read()
            self.send_response(r.status)
            self.send_header("Content-Type", r.headers.get("Content-Type", "text/plain"))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
    do_GET = do_POST = do_any

    def log_message(self, *a):
        pass


def basic_proxy(user, password, tls):
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), BasicProxy)
    srv.expected = base64.b64encode(f"{user}:{password}".encode()).decode()
    srv.sent = srv.good = 0
    if tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        d = os.path.dirname(server["ca"])
        ctx.load_cert_chain(os.path.join(d, "cert.pem"), os.path.join(d, "key.pem"))
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"{'https' if tls else 'http'}://127.0.0.1:{srv.server_address[1]}/sparql"


def case_auth():
    """HTTPS (the server's self-signed certificate, trusted through --ca-file), digest and basic
    authentication, credentials from a file and from ~/.netrc; never in a message or provenance."""
    jobs = scenario()
    user, password = server["loader"]
    https = f"https://127.0.0.1:{server['https']}"
    creds = os.path.join(work, "credentials")
    with open(os.open(creds, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(f"machine 127.0.0.1 login {user} password {password}\n")
    home = os.path.join(work, "home")
    os.makedirs(home)
    shutil.copy(creds, os.path.join(home, ".netrc"))
    env_file = dict(ENV, PROVIO_CREDENTIALS=creds)
    env_netrc = {k: v for k, v in ENV.items() if k != "PROVIO_CREDENTIALS"}
    env_netrc["HOME"] = home
    ca = ("--ca-file", server["ca"])
    into(jobs[0])  # over plain HTTP, to ask about over HTTPS
    merged = os.path.join(work, "job1.ttl")
    run(args.merge, "-q", jobs[0], "-o", merged)
    local = run(args.query, "programs", "-f", "csv", merged).stdout
    messages = []

    def ask(url, env, *extra, expect=0):
        r = run(args.query, "programs", "-f", "csv", "--endpoint", url, *extra, env=env, expect=expect)
        messages.append(r.stderr)
        return r

    proxy, proxied = basic_proxy(user, password, tls=True)
    for url, way in ((https + "/sparql-auth", "digest (Virtuoso)"), (proxied, "basic (proxy)")):
        r = ask(url, env_file, *ca)
        check(r.stdout == local, f"HTTPS, {way}, credentials from a file: the answer is the local one")
        r = ask(url, env_netrc, *ca)
        check(r.stdout == local, f"HTTPS, {way}, credentials from ~/.netrc: the answer is the local one")
        r = ask(url, env_file, *ca, "--credentials", os.path.join(work, "missing"), expect=2)
        check("cannot read credentials" in r.stderr, f"HTTPS, {way}: a missing credentials file is refused")
    check(proxy.good >= 2 and proxy.good == proxy.sent, f"basic: the proxy saw the right credentials ({proxy.good})")
    proxy.shutdown()
    # Over plain HTTP basic would send the password in clear: provio offers only digest there.
    proxy, proxied = basic_proxy(user, password, tls=False)
    r = ask(proxied, env_file, expect=2)
    check("HTTP 401" in r.stderr and proxy.sent == 0, f"basic over plain HTTP: nothing sent, HTTP 401 ({proxy.sent})")
    proxy.shutdown()
    # Removal is a SPARQL Update through the authenticated endpoint, over HTTPS.
    r = run(args.merge, "--into", https + "/sparql-graph-crud-auth", "--remove", PREFIX + "job1", *ca, env=env_netrc)
    messages.append(r.stderr)
    check(run(args.query, "programs", "-f", "csv", "--endpoint", ENDPOINT).stdout.count("\n") == 1,
          "HTTPS, digest, ~/.netrc: the job is removed")
    # Loading over HTTPS: Virtuoso 7.2's TLS listener never answers a Graph Store request with a
    # body and credentials; SPARQL Update INSERT DATA it answers (docs/shared-store.md). In chunks
    # of 10 triples: a staging graph, moved into place; then again, which sends nothing.
    load = ("--into", https + "/sparql-graph-crud-auth", "--load-with", "update", *ca)
    for chunk, says in (("10", "triples (was 0)"), ("2000", "unchanged")):
        r = run(args.merge, jobs[1], *load, "--chunk", chunk, env=env_file)
        messages.append(r.stderr)
        check(says in r.stderr, f"HTTPS, digest, --load-with update --chunk {chunk}: {r.stderr.strip()}")
    check(server_graph(PREFIX + "job2") == local_graph(jobs[1]), "HTTPS, --load-with update: the graph is the local merge")
    check(not [g for g in graphs() if "staging" in g], "HTTPS, --load-with update: no staging graph is left")
    r = run(args.merge, jobs[1], *load, "--load-with", "put", env=env_file, expect=1)
    check("--load-with takes graph-store or update" in r.stderr, f"a bad --load-with: {r.stderr.strip()}")
    run(args.merge, "-q", "--into", https + "/sparql-graph-crud-auth", "--remove", PREFIX + "job2", *ca, env=env_file)
    # Without the CA the certificate is refused at once (no retry), naming the cause.
    r = ask(https + "/sparql-auth", env_file, expect=2)
    check("retrying" not in r.stderr and "certificate" in r.stderr.lower(),
          f"HTTPS without --ca-file: refused at once: {r.stderr.strip()}")
    r = ask(https + "/sparql-auth", env_file, "--ca-file", os.path.join(work, "missing.pem"), expect=2)
    check("missing.pem: cannot read CA file" in r.stderr, f"a missing CA file: {r.stderr.strip()}")
    # A wrong password: HTTP 401, and the password tried is not repeated.
    wrong = os.path.join(work, "wrong")
    with open(os.open(wrong, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(f"machine 127.0.0.1 login {user} password {password}-wrong\n")
    r = ask(https + "/sparql-auth", env_file, *ca, "--credentials", wrong, expect=2)
    check("HTTP 401" in r.stderr, f"HTTPS, wrong password: {r.stderr.strip()}")
    # Credentials in the URL would be on the command line: refused without repeating them.
    r = ask(f"https://{user}:{password}@127.0.0.1:{server['https']}/sparql-auth", env_file, *ca, expect=2)
    check("credentials file" in r.stderr, f"a URL with credentials is refused: {r.stderr.strip()}")
    check(not any(password in m for m in messages), "no message repeats the password")
    # prov-query traced by provio: its provenance names the credentials file, never its content.
    prov = os.path.join(work, "traced")
    run(args.query, "programs", "--endpoint", https + "/sparql-auth", *ca,
        env=dict(env_file, LD_PRELOAD=args.preload, PROVIO_DIR=prov))
    recorded = b"".join(zstd_raw.read_bytes(f) for f in zstd_raw.raw_files(prov, recursive=True))
    check(recorded and password.encode() not in recorded,
          "the provenance of a traced prov-query holds no credential")


reset()
{"auth": case_auth, "load": case_load, "questions": case_questions, "concurrent": case_concurrent, "failures": case_failures}[args.case]()
print("PASS")
