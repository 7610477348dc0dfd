#!/usr/bin/python3
"""A hyperparameter sweep of a tiny numpy model, instrumented with provio.

Trains a one-hidden-layer network on a synthetic two-moons-like problem (generated here: no
downloads) for each hyperparameter setting, recording per run (a provio task): its
hyperparameters, training and validation metrics per epoch, and a checkpoint per epoch. The
checkpoints are HDF5 files written through h5ckpt.c (so the VOL connector sees them) when that
helper is given, else .npz files (seen by the POSIX preload shim). Run it under both at once:

    LD_PRELOAD=<build>/src/posix/libprovio_posix.so \
    HDF5_PLUGIN_PATH=<build>/plugins HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}" \
    PYTHONPATH=<build>/python /usr/bin/python3 train.py --out run --h5ckpt <build>/examples/ml_sweep/libh5ckpt.so
    prov-query best --metric accuracy run/provio
"""
import argparse
import ctypes
import itertools
import os

import numpy as np

import provio


def make_data(rng, n):
    """Two interleaved half circles with noise: not linearly separable."""
    t = rng.uniform(0, np.pi, n)
    label = rng.integers(0, 2, n)
    x = np.where(label == 0, np.cos(t), 1 - np.cos(t))
    y = np.where(label == 0, np.sin(t), 0.5 - np.sin(t))
    pts = np.stack([x, y], axis=1) + rng.normal(0, 0.15, (n, 2))
    return pts.astype(np.float64), label.astype(np.float64)


class Checkpointer:
    def __init__(self, helper):
        self.h5 = None
        if helper:
            self.h5 = ctypes.CDLL(helper)
            self.h5.h5ckpt_write.restype = ctypes.c_int

    def save(self, base, weights):
        """Writes the weights; returns the provio data reference of what was written."""
        if self.h5 is not None:
            path = base + ".h5"
            names = list(weights)
            arrs = [np.ascontiguousarray(weights[k], dtype=np.float64) for k in names]
            n = len(names)
            c_names = (ctypes.c_char_p * n)(*[k.encode() for k in names])
            c_data = (ctypes.POINTER(ctypes.c_double) * n)(
                *[a.ctypes.data_as(ctypes.POINTER(ctypes.c_double)) for a in arrs])
            rows = (ctypes.c_size_t * n)(*[a.shape[0] for a in arrs])
            cols = (ctypes.c_size_t * n)(*[a.shape[1] if a.ndim > 1 else 1 for a in arrs])
            if self.h5.h5ckpt_write(path.encode(), n, c_names, c_data, rows, cols) == 0:
                # The checkpoint file: the VOL connector's H5Dwrite activities are on its
                # datasets (file://…/run-N.h5#/weights/W1, provio:inFile the file), the preload
                # shim's pwrite activities on the file itself.
                return provio.file(path)
        path = base + ".npz"
        with open(path, "wb") as f:
            np.savez(f, **weights)
        return provio.file(path)


def train(run, hp, data, ckpt, base):
    rng = np.random.default_rng(hp["seed"])
    xtr, ytr, xva, yva = data
    w1 = rng.normal(0, 1, (2, hp["hidden"]))
    b1 = np.zeros((1, hp["hidden"]))
    w2 = rng.normal(0, 1, (hp["hidden"], 1))
    b2 = np.zeros((1, 1))

    def forward(x):
        h = np.tanh(x @ w1 + b1)
        return h, 1 / (1 + np.exp(-(h @ w2 + b2)))

    def loss_acc(x, y):
        _, p = forward(x)
        p = np.clip(p[:, 0], 1e-9, 1 - 1e-9)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), float(np.mean((p > 0.5) == y))

    best = 0.0
    for epoch in range(1, hp["epochs"] + 1):
        for _ in range(hp["steps_per_epoch"]):
            h, p = forward(xtr)
            g = (p - ytr[:, None]) / len(xtr)
            gw2, gb2 = h.T @ g, g.sum(0, keepdims=True)
            gh = (g @ w2.T) * (1 - h ** 2)
            gw1, gb1 = xtr.T @ gh, gh.sum(0, keepdims=True)
            w1 -= hp["lr"] * gw1
            b1 -= hp["lr"] * gb1
            w2 -= hp["lr"] * gw2
            b2 -= hp["lr"] * gb2
        tl, ta = loss_acc(xtr, ytr)
        vl, va = loss_acc(xva, yva)
        provio.metric(step=epoch, stage="training", train_loss=tl, train_accuracy=ta)
        # "accuracy" is the validation accuracy (what a sweep is ranked by); numpy scalars go in as is
        provio.metric(step=epoch, stage="validation", loss=np.float64(vl), accuracy=np.float64(va))
        ref = ckpt.save(base, {"W1": w1, "b1": b1, "W2": w2, "b2": b2})
        provio.model(ref, config=run["config"], step=epoch, name=f"mlp {run['name']}")
        best = max(best, va)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="ml_sweep_out", help="working directory for data and checkpoints")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--h5ckpt", help="path of libh5ckpt.so: write HDF5 checkpoints through it")
    ap.add_argument("--campaign", default="ml-sweep-demo")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "checkpoints"), exist_ok=True)
    ckpt = Checkpointer(a.h5ckpt)

    with provio.workflow("ml_sweep", campaign=a.campaign):
        provio.program_type("training")
        # The data preparation is a task of its own: it writes the dataset the runs read.
        with provio.task("prepare data") as prep:
            rng = np.random.default_rng(7)
            sel = provio.data_selection(samples=600, noise=0.15, validation_fraction=0.25, generator_seed=7)
            x, y = make_data(rng, 600)
            data_path = os.path.join(a.out, "moons.npz")
            with open(data_path, "wb") as f:
                np.savez(f, x=x, y=y)
            prep.output(data_path)
        with np.load(data_path) as d:
            x, y = d["x"], d["y"]
        split = 450
        data = (x[:split], y[:split], x[split:], y[split:])

        grid = list(itertools.product([0.05, 0.5, 2.0], [3, 16]))
        results = []
        for i, (lr, hidden) in enumerate(grid):
            name = f"run-{i}"
            with provio.task(name) as t:
                t.input(data_path)
                t.use(sel)
                provio.dataset(data_path, stage="training", name="moons")
                hp = {"lr": lr, "hidden": hidden, "epochs": a.epochs, "steps_per_epoch": 50, "seed": 1000 + i}
                cfg = provio.hyperparameters(hp, name=f"{name} hyperparameters")
                base = os.path.join(a.out, "checkpoints", name)
                best = train({"name": name, "config": cfg}, hp, data, ckpt, base)
                t.results(best_validation_accuracy=best)
                results.append((best, name, lr, hidden))
    for best, name, lr, hidden in sorted(results, reverse=True):
        print(f"{name}: lr={lr:<5} hidden={hidden:<3} best validation accuracy {best:.3f}")


if __name__ == "__main__":
    main()
