"""IRIs too long for the server (docs/shared-store.md, "Long IRIs"): Virtuoso 7.2 replaces an IRI
of more than 1,879 characters with one of its own. The DASSA chain runs in a directory whose path
has more than 2,400 characters: loaded twice, the second load is "unchanged"; lineage through
--endpoint equals the local lineage (two levels up), also when another job's graph claims other
full IRIs for the short ones; the server holds provio's short form.

  long_iri_test.py long-iri [--engine E] (arguments of store_common.py)"""
import os

from store_common import *  # noqa: E402,F401,F403


def case_long_iri():
    deep = os.path.join(work, *(f"{i}" + "d" * 239 for i in range(10)))
    os.makedirs(deep)
    check(len(deep) > 2400, f"a path of {len(deep)} characters")
    f = lambda name: os.path.join(deep, name)  # noqa: E731
    program(args.a, PREFIX + "job1", f"create:{f('WestSac.h5')}:0", f"write:{f('WestSac.h5')}:/das/strain:4096x8",
            f"close:{f('WestSac.h5')}:0")
    program(args.b, PREFIX + "job2", f"open:{f('WestSac.h5')}:0", f"read:{f('WestSac.h5')}:/das/strain:4096x8",
            f"close:{f('WestSac.h5')}:0", f"create:{f('decimate.h5')}:0", f"write:{f('decimate.h5')}:/dec:1024x4",
            f"close:{f('decimate.h5')}:0")
    program(args.c, PREFIX + "job2", f"open:{f('decimate.h5')}:0", f"read:{f('decimate.h5')}:/dec:1024x4",
            f"close:{f('decimate.h5')}:0", f"create:{f('detections.csv')}:0", f"write:{f('detections.csv')}:100")
    prov = os.path.join(work, "prov")
    into(prov)
    r = into(prov)
    check(r.stderr.count("unchanged") == 2, f"loading the jobs again changes nothing: {r.stderr.strip()}")
    # The server holds the short form with the full IRI beside it, not its own rewriting.
    iris = {str(t) for s, p, o in server_graph(PREFIX + "job2") for t in (s, p, o) if isinstance(t, rdflib.URIRef)}
    check(iris and max(len(i) for i in iris) <= 1024, "no IRI on the server is longer than provio's limit")
    full = {str(o) for s, p, o in server_graph(PREFIX + "job2") if str(p).endswith("#fullIri")}
    check(any(i.endswith("/detections.csv") and len(i) > 2400 for i in full),
          "the full IRI of detections.csv is on the server, beside its short form")
    # Another job's graph claims other full IRIs for the short ones: only the IRI whose SHA-256
    # the short IRI is counts, so answers do not change.
    forged = os.path.join(work, PREFIX + "forger.ttl")
    with open(forged, "w") as out:
        for s, p, o in server_graph(PREFIX + "job2"):
            if str(p).endswith("#fullIri"):
                out.write(f"<{s}> <{p}> \"file:///forged{len(str(o))}\" .\n")
    into(forged)
    merged = os.path.join(work, "all.ttl")
    run(args.merge, "-q", prov, "-o", merged)
    for qn in (["lineage", f("detections.csv"), "--up"], ["lineage", f("WestSac.h5"), "--down"],
               ["stats", "--by", "file"]):
        local = run(args.query, *qn, "-f", "csv", merged).stdout
        remote = run(args.query, *qn, "-f", "csv", "--endpoint", ENDPOINT).stdout
        check(local == remote and local.count(deep) >= (2 if qn[0] == "lineage" else 1),
              f"{' '.join(os.path.basename(a) for a in qn)}: the server's answer is the local one"
              + ("" if local == remote else f"\n--- local\n{local}\n--- server\n{remote}"))


reset()
{"long-iri": case_long_iri}[args.case]()
print("PASS")
