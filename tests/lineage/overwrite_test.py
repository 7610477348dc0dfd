"""Issue 13's reproduction: `cp a.txt b.txt; tr a-z A-Z < b.txt > c.txt; cp x.txt b.txt`, three
real programs under the preload library (the shell that redirects is not traced, as in a batch
script). b.txt is overwritten from x.txt only after c.txt was made, so neither x.txt nor that cp
may be an ancestor of c.txt; and b.txt's later version must not have c.txt as a descendant.
prov-query's answer is checked against an independent rdflib query over versions."""
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
env = lineage_env.clean_env()
env.update(LD_PRELOAD=args.preload, PROVIO_DIR=prov)
with open(os.path.join(work, "a.txt"), "w") as f:
    f.write("first content\n")
with open(os.path.join(work, "x.txt"), "w") as f:
    f.write("later content\n")


def sh(command):
    # The redirections are the untraced shell's: tr inherits its descriptors, as in a batch script.
    r = subprocess.run(["/bin/sh", "-c", command], cwd=work, env=dict(env, LD_PRELOAD=""), capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.exit(f"{command} failed: {r.stderr}")


sh(f"LD_PRELOAD={args.preload} cp a.txt b.txt")
sh(f"LD_PRELOAD={args.preload} tr a-z A-Z < b.txt > c.txt")
sh(f"LD_PRELOAD={args.preload} cp x.txt b.txt")
with open(os.path.join(work, "c.txt")) as f:
    check(f.read() == "FIRST CONTENT\n", "the scenario itself")

pq = oracle.Tool(args.prov_query)


def lineage(entity, direction):
    rows = pq.json("lineage", os.path.join(work, entity), direction, "--depth", "all", prov)
    return [r for r in rows if r["kind"] == "entity"], [r for r in rows if r["kind"] == "program"]


ents, progs = lineage("c.txt", "--up")
names = {r["name"] for r in ents}
labels = {r["name"] for r in progs}
print("up from c.txt:", sorted(names), sorted(labels))
check(not any("x.txt" in n for n in names), f"x.txt is not an ancestor of c.txt: {names}")
check(not any("x.txt" in n for n in labels), f"cp x.txt is not an ancestor of c.txt: {labels}")
check(any(n.startswith(os.path.join(work, "b.txt") + " @") for n in names), f"b.txt's first version is: {names}")
check(any(n.startswith(os.path.join(work, "a.txt") + " @") for n in names), f"a.txt's version is: {names}")
check(sorted(lab.split(" (")[0] for lab in labels) == ["cp a.txt", "tr a-z"], f"cp a.txt and tr: {labels}")

# Independent answer: rdflib over the raw files. The version of b.txt tr read, and who left it.
g = oracle.load([prov])
b = f"file://{work}/b.txt"
rows = oracle.q(g, f"""SELECT ?v ?cmd WHERE {{
    ?read prov:used ?v . ?v a provio:Version ; prov:specializationOf <{b}> .
    ?read prov:wasAssociatedWith/prov:actedOnBehalfOf ?reader . ?reader provio:commandLine ?rcmd .
    FILTER(STRSTARTS(?rcmd, "tr "))
    ?v prov:wasGeneratedBy ?close . ?close prov:wasAssociatedWith/prov:actedOnBehalfOf ?writer .
    ?writer provio:commandLine ?cmd }}""")
check([str(r[1]) for r in rows] == ["cp a.txt b.txt"], f"rdflib: the version tr read was left by cp a.txt: {rows}")
versions = oracle.q(g, f"SELECT ?v WHERE {{ ?v prov:specializationOf <{b}> }}")
check(len(versions) == 2, f"rdflib: b.txt has two versions: {versions}")
tr_version = str(rows[0][0]) if rows else ""
check(any(r["iri"] == tr_version for r in ents), f"prov-query names the version rdflib found: {tr_version}")

# Downward: the later version of b.txt (from x.txt) leads nowhere; x.txt leads to b.txt only.
ents, progs = lineage("x.txt", "--down")
names = {r["name"] for r in ents}
print("down from x.txt:", sorted(names), sorted(r["name"] for r in progs))
check(not any("c.txt" in n for n in names), f"c.txt does not descend from x.txt: {names}")
check(any("b.txt" in n for n in names), f"b.txt descends from x.txt: {names}")
oracle.finish("lineage.overwrite")
