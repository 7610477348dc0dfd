#!/usr/bin/python3
"""Issue 31, item 6: lineage per task, in one Python process. Outside any task the program writes
raw.bin; task `prepare` reads it and writes the training data (data.bin) and a summary of it
(meta.bin); task `train` reads data.bin back in its subtask `epoch` (the DataLoader), which also
writes and reads back a scratch file of its own (scratch.bin), and then writes the model
(model.bin).

    tasks.py WORKDIR
"""
import os
import struct
import sys

import provio

work = sys.argv[1]


def path(name):
    return os.path.join(work, name)


def save(name, values):
    with open(path(name), "wb", buffering=0) as f:
        f.write(struct.pack(f"{len(values)}d", *values))


def load(name):
    with open(path(name), "rb", buffering=0) as f:
        raw = f.read()
    return list(struct.unpack(f"{len(raw) // 8}d", raw))


save("raw.bin", [float(i) for i in range(64)])
with provio.workflow("tasks"):
    with provio.task("prepare"):
        samples = [2 * x for x in load("raw.bin")]
        save("data.bin", samples)
        save("meta.bin", [float(len(samples))])
    with provio.task("train"):
        with provio.task("epoch"):  # a subtask's reads are its parent's too
            batch = load("data.bin")  # the DataLoader: what `prepare` wrote
            save("scratch.bin", batch[:8])
            load("scratch.bin")  # its own content read back: no input
        save("model.bin", [sum(batch) / len(batch)])
