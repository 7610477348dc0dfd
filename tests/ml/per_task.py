#!/usr/bin/python3
"""Issue 31, item 6: the ML questions per task, in one Python process. Task `prepare` writes the
training data that task `pretrain` reads; `pretrain` (lr 0.1, tensor-parallel size 2) saves a
checkpoint that task `resume` (lr 0.2, tensor-parallel size 4) loads; task `inspect`, which
declared no configuration, loads it too. The learning rate is a hyperparameter setting, the
parallel sizes a general configuration.

    per_task.py WORKDIR
"""
import os
import struct
import sys

import provio

work = sys.argv[1]
data, ckpt = os.path.join(work, "train.bin"), os.path.join(work, "ckpt.bin")


def save(path, values):
    with open(path, "wb", buffering=0) as f:
        f.write(struct.pack(f"{len(values)}d", *values))


def load(path):
    with open(path, "rb", buffering=0) as f:
        raw = f.read()
    return list(struct.unpack(f"{len(raw) // 8}d", raw))


def configure(lr, tp):
    hp = provio.hyperparameters({"lr": lr}, name=f"hp lr={lr}")
    provio.config({"tensor_parallel": tp, "pipeline_parallel": 1}, name=f"parallel tp={tp}")
    return hp


with provio.workflow("per-task"):
    with provio.task("prepare"):
        save(data, [float(i) for i in range(64)])
    with provio.task("pretrain"):
        hp = configure(0.1, 2)
        weights = [x * 0.1 for x in load(data)]  # the DataLoader: reads what `prepare` wrote
        provio.metric("accuracy", 0.7, step=1, stage="validation")
        save(ckpt, weights)
        provio.model(ckpt, config=hp, step=1, name="gpt")
    with provio.task("resume"):
        configure(0.2, 4)
        weights = load(ckpt)  # the load, under another configuration
        provio.metric("accuracy", 0.8, step=2, stage="validation")
    with provio.task("inspect"):
        load(ckpt)  # a load with no configuration declared: cannot be judged
