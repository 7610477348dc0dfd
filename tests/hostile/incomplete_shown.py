"""What provio could not record is shown by the tools, not only written in the graph: deep_cwd
under the preload library loses the calls on names it cannot resolve; `prov-query programs` has
them in its incomplete column and the prov-viz report names the run as incomplete.
    incomplete_shown.py <preload> <deep_cwd> <prov-query> <prov-viz>"""
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile

preload, program, query, viz = sys.argv[1:]
work = tempfile.mkdtemp(prefix="provio-incomplete-")
prov = os.path.join(work, "prov")
env = dict(os.environ, LD_PRELOAD=preload, PROVIO_DIR=prov, PROVIO_LOG=os.path.join(work, "log"))
subprocess.run([program, work], env=env, check=True, stdout=subprocess.DEVNULL)
out = subprocess.run([query, "programs", "-f", "csv", prov], check=True, stdout=subprocess.PIPE, text=True).stdout
rows = list(csv.DictReader(io.StringIO(out)))
runs = [r for r in rows if r["executable"] == os.path.realpath(program)]
if len(runs) != 1 or not runs[0]["incomplete"].startswith("unresolved-name: "):
    sys.exit("FAIL: prov-query programs: %r" % rows)
lost = int(runs[0]["incomplete"].split(": ")[1])
report = os.path.join(work, "report.html")
subprocess.run([viz, "report", "-o", report, prov], check=True)
html = open(report, encoding="utf-8").read()
if "Incomplete provenance: " not in html or "unresolved-name: %d" % lost not in html:
    sys.exit("FAIL: the report does not name the incomplete run")
shutil.rmtree(work)
print("ok: %d unresolved names shown by prov-query and the report" % lost)
