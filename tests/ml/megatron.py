#!/usr/bin/python3
"""Seed 000's Megatron-LM case, small: a model trained with configuration A writes an HDF5
checkpoint (through the VOL connector) every iteration under one name; later programs resume
from it with a configuration of their own, and write their own checkpoints.

    megatron.py train  --config A --save CKPT --h5io LIB
    megatron.py resume --config B --load CKPT --save OTHER --h5io LIB
"""
import argparse
import os
import sys

import numpy as np

import provio

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "examples", "provlake"))
from h5io import H5IO  # noqa: E402

CONFIGS = {
    "A": {"lr": 0.1, "hidden": 8, "micro_batch": 4, "seed": 1},
    "B": {"lr": 0.2, "hidden": 8, "micro_batch": 4, "seed": 1},  # one hyperparameter changed
}


def iterate(h5, hp, config, weights, save, first, count):
    """`count` training iterations, each in a nested task, each rewriting the checkpoint."""
    rng = np.random.default_rng(hp["seed"] + first)
    for it in range(first, first + count):
        with provio.task("iteration"):
            grad = rng.normal(0, 1, weights.shape)
            weights = weights - hp["lr"] * grad
            provio.metric("loss", float(np.mean(weights ** 2)), step=it, stage="training")
            h5.write(save, {"/weights/W": weights})
            # The writer reads its own checkpoint back (a validation): not a load.
            assert np.array_equal(h5.read(save, "/weights/W"), weights)
            provio.model(save, config=config, step=it, name="gpt")
    return weights



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("phase", choices=("train", "resume"))
    ap.add_argument("--config", choices=sorted(CONFIGS), required=True)
    ap.add_argument("--save", required=True)
    ap.add_argument("--load")
    ap.add_argument("--h5io", required=True)
    a = ap.parse_args()
    h5 = H5IO(a.h5io)
    hp = CONFIGS[a.config]
    with provio.workflow("megatron", campaign="resume-check"):
        with provio.task(f"{a.phase} {a.config}"):
            config = provio.hyperparameters(hp, name=f"config {a.config}")
            if a.phase == "train":
                iterate(h5, hp, config, np.zeros((hp["hidden"], hp["hidden"])), a.save, 1, 3)
            else:
                weights = h5.read(a.load, "/weights/W")  # the load
                iterate(h5, hp, config, weights, a.save, 4, 2)


if __name__ == "__main__":
    main()
