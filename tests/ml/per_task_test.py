"""Issue 31, item 6: tasks, not processes, are the unit of the ML questions. per_task.py runs once
under the preload library at the level given (one Python process, four tasks; at summary level
each activity holds the calls of one task, so resume's and inspect's loads of one checkpoint
version are two); prov-query answers:
- checkpoints: resume loaded pretrain's checkpoint with lr 0.1->0.2 and tensor_parallel 2->4 (the
  union of the hyperparameters and the general configuration each task declared), and inspect's
  load is listed as could not be judged;
- best --used train.bin: pretrain's run read the data prepare wrote in the same process.

    per_task_test.py --prov-query Q --preload LIB --python-path DIR --level LEVEL --work DIR"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "prov_query"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lineage"))
import lineage_env  # noqa: E402
import oracle  # noqa: E402
from oracle import check  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-query", "preload", "python-path", "level", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()

work, prov = lineage_env.fresh_work(args.work)
env = dict(lineage_env.clean_env(), PYTHONPATH=args.python_path, LD_PRELOAD=args.preload, PROVIO_DIR=prov,
           PROVIO_LEVEL=args.level)
program = os.path.join(os.path.dirname(os.path.abspath(__file__)), "per_task.py")
subprocess.run([sys.executable, program, work], cwd=work, env=env, check=True, timeout=120)
pq = oracle.Tool(args.prov_query)

rows = pq.json("checkpoints", prov, cwd=work)
print("checkpoints:", [(r.get("written_by"), r.get("loaded_by"), r.get("differences")) for r in rows])
loads = {r["loaded_by"].split(" (")[0]: r for r in rows}
check(sorted(loads) == ["inspect", "resume"], f"two loads of pretrain's checkpoint, by resume and inspect: {rows}")
resume = loads.get("resume", {})
check(resume.get("written_by", "").startswith("pretrain")
      and sorted(resume.get("differences", "").split()) == ["lr:0.1->0.2", "tensor_parallel:2->4"],
      f"resume: the learning rate and the tensor-parallel size changed, over both kinds: {resume}")
inspect = loads.get("inspect", {})
check(inspect.get("differences", "").startswith("(could not be judged"),
      f"inspect declared no configuration: listed as could not be judged: {inspect}")

rows = pq.json("best", "--metric", "accuracy", "--used", "train.bin", prov, cwd=work)
check([r.get("run") for r in rows] == ["pretrain"], f"best --used train.bin: pretrain's run read it: {rows}")

oracle.finish(f"ml.per_task ({args.level})")
