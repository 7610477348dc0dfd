"""Issue 31, item 6: tasks are the unit of lineage. tasks.py runs in one Python process under the
preload library (at the level given); prov-query's lineage then follows what one task of it wrote
and another read:
- model.bin (train's) comes from data.bin (prepare's, read by train's subtask epoch), and from
  raw.bin (written outside any task, read by prepare); not from scratch.bin (epoch wrote and read
  it itself) nor meta.bin;
- meta.bin (prepare's) comes from raw.bin, not from data.bin or model.bin (train's);
- downward, data.bin leads to model.bin, not to meta.bin (prepare's, made before train read it).

    tasks_test.py --prov-query Q --preload LIB --python-path DIR --level LEVEL --work DIR"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prov_query"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineage_env  # noqa: E402  (puts tests/ on the path: harness)
import harness  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

args = harness.options("--prov-query", "--preload", "--python-path", "--level", "--work")

work, prov = lineage_env.fresh_work(args.work)
env = dict(lineage_env.clean_env(), PYTHONPATH=args.python_path, LD_PRELOAD=args.preload, PROVIO_DIR=prov,
           PROVIO_LEVEL=args.level)
program = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks.py")
subprocess.run([sys.executable, program, work], cwd=work, env=env, check=True, timeout=120)
pq = oracle.Tool(args.prov_query)


def files(name, direction):
    rows = pq.json("lineage", os.path.join(work, name), direction, "--depth", "all", prov)
    found = sorted({os.path.basename(r["name"].split(" @")[0]) for r in rows if r["kind"] == "entity"})
    found = [f for f in found if f.endswith(".bin")]
    print(f"lineage {name} {direction}:", found)
    return found


up = files("model.bin", "--up")
check("data.bin" in up, f"model.bin: from data.bin, which prepare wrote and train read: {up}")
check("raw.bin" in up, f"model.bin: from raw.bin, read by prepare: {up}")
check("scratch.bin" not in up and "meta.bin" not in up, f"model.bin: not from train's own scratch, nor meta.bin: {up}")
up = files("meta.bin", "--up")
check(up == ["raw.bin"], f"meta.bin: from raw.bin only: {up}")
down = files("data.bin", "--down")
check("model.bin" in down and "meta.bin" not in down, f"data.bin: leads to model.bin, not to meta.bin: {down}")
oracle.finish(f"lineage.tasks_{args.level}")
