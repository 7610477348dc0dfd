#!/usr/bin/python3
"""ProvLake's machine-learning lifecycle (seed 002, Fig. 2), small: three phases run as three
programs, each recording what it does with provio, so that one merged graph answers the paper's
queries Q1-Q6 (docs/ml-questions.md).

    lifecycle.py curate  --out DIR --h5io LIB   data curation: raw seismic HDF5 files with
                                                coordinates, basin and field (VOL connector)
    lifecycle.py prepare --out DIR --h5io LIB   learning-data preparation: parameterised tiling
                                                of inline ranges into training sets
    lifecycle.py learn   --out DIR              learning: a sweep per training set with per-batch
                                                tasks, per-epoch metrics and checkpoints

Run each under the preload library and the VOL connector (run_lifecycle.sh does, then merges).
The data are synthetic (no downloads): a cube of amplitudes per survey; a tile's label says
whether its noise-filtered mean amplitude is positive, which a logistic regression can learn.
"""
import argparse
import os
import sys

import numpy as np

import provio

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h5io import H5IO  # noqa: E402

CAMPAIGN = "provlake-demo"
# survey: (latitude, longitude, basin, field, inlines)
SURVEYS = {
    "netherlands": (54.87, 4.78, "North Sea", "F3 Block", 64),
    "parihaka": (-39.32, 173.69, "Taranaki", "Parihaka", 32),
}
TRACES, SAMPLES = 16, 32
# training set: (survey, first inline, last inline, tile size, noise threshold)
SELECTIONS = {
    "f3-inlines-0-31": ("netherlands", 0, 31, 8, 0.1),
    "f3-inlines-32-63": ("netherlands", 32, 63, 8, 0.3),
    "parihaka-inlines-0-15": ("parihaka", 0, 15, 4, 0.1),
}
LEARNING_RATES = (0.05, 0.5)
EPOCHS, BATCHES = 3, 4


def raw_path(out, survey):
    return os.path.join(out, "raw", f"{survey}.h5")


def train_path(out, name):
    return os.path.join(out, "train", f"{name}.npz")


def curate(a):
    h5 = H5IO(a.h5io)
    os.makedirs(os.path.join(a.out, "raw"), exist_ok=True)
    with provio.workflow("data curation", campaign=CAMPAIGN):
        provio.program_type("curation")
        for i, (survey, (lat, lon, basin, field, inlines)) in enumerate(sorted(SURVEYS.items())):
            with provio.task(f"curate {survey}") as t:
                cube = np.random.default_rng(i).normal(0, 1, (inlines, TRACES, SAMPLES))
                meta = {"latitude": lat, "longitude": lon, "basin": basin, "field": field, "inlines": inlines}
                path = raw_path(a.out, survey)
                h5.write(path, {"/seismic/amplitude": cube}, meta)
                t.output(path)
                # What curation extracted from the raw file, on the task that produced it: the
                # values Q1 and Q6 ask for.
                t.results(meta)


def tiles(block, size, threshold):
    """Square tiles of every inline; label: the noise-filtered tile mean is positive."""
    filtered = np.where(np.abs(block) < threshold, 0.0, block)
    xs, ys = [], []
    for inline in filtered:
        for r in range(0, TRACES - size + 1, size):
            for c in range(0, SAMPLES - size + 1, size):
                tile = inline[r:r + size, c:c + size]
                xs.append(tile.ravel())
                ys.append(1.0 if tile.mean() > 0 else 0.0)
    return np.array(xs), np.array(ys)


def prepare(a):
    h5 = H5IO(a.h5io)
    os.makedirs(os.path.join(a.out, "train"), exist_ok=True)
    with provio.workflow("learning data preparation", campaign=CAMPAIGN):
        provio.program_type("preparation")
        for name, (survey, first, last, size, threshold) in sorted(SELECTIONS.items()):
            with provio.task(f"prepare {name}") as t:
                provio.data_selection(tile_size=size, noise_threshold=threshold, inline_first=first,
                                      inline_last=last, name=f"{name} selection")
                raw = raw_path(a.out, survey)
                t.input(raw)
                block = h5.read(raw, "/seismic/amplitude", first, last - first + 1)
                x, y = tiles(block, size, threshold)
                path = train_path(a.out, name)
                with open(path, "wb") as f:
                    np.savez(f, x=x, y=y)
                t.output(path)


def loss_accuracy(w, b, x, y):
    p = np.clip(1 / (1 + np.exp(-(x @ w + b))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), float(np.mean((p > 0.5) == y))


def learn(a):
    os.makedirs(os.path.join(a.out, "checkpoints"), exist_ok=True)
    with provio.workflow("learning", campaign=CAMPAIGN):
        provio.program_type("training")
        for s, name in enumerate(sorted(SELECTIONS)):
            data = train_path(a.out, name)
            for i, lr in enumerate(LEARNING_RATES):
                run = f"{name} lr={lr}"
                with provio.task(run) as t:
                    t.input(data)
                    provio.dataset(data, stage="training", name=name)
                    hp = provio.hyperparameters(lr=lr, epochs=EPOCHS, batches=BATCHES, seed=10 * s + i,
                                                name=f"{run} hyperparameters")
                    with np.load(data) as d:
                        x, y = d["x"], d["y"]
                    rng = np.random.default_rng(10 * s + i)
                    order = rng.permutation(len(x))
                    cut = len(x) * 4 // 5
                    xtr, ytr, xva, yva = x[order[:cut]], y[order[:cut]], x[order[cut:]], y[order[cut:]]
                    w, b = np.zeros(x.shape[1]), 0.0
                    ckpt = os.path.join(a.out, "checkpoints", f"{name}-lr{lr}.npz")
                    for epoch in range(1, EPOCHS + 1):
                        with provio.task(f"epoch {epoch}"):
                            for xb, yb in zip(np.array_split(xtr, BATCHES), np.array_split(ytr, BATCHES)):
                                with provio.task("batch"):
                                    g = 1 / (1 + np.exp(-(xb @ w + b))) - yb
                                    w = w - lr * xb.T @ g / len(xb)
                                    b = b - lr * float(g.mean())
                        tl, ta = loss_accuracy(w, b, xtr, ytr)
                        vl, va = loss_accuracy(w, b, xva, yva)
                        provio.metric(step=epoch, stage="training", loss=tl, accuracy=ta)
                        provio.metric(step=epoch, stage="validation", loss=vl, accuracy=va)
                        # One file per run, rewritten every epoch: one checkpoint version per epoch.
                        with open(ckpt, "wb") as f:
                            np.savez(f, w=w, b=np.array([b]))
                        provio.model(ckpt, config=hp, step=epoch, name=f"classifier {run}")
                    print(f"{run}: validation loss {vl:.4f} accuracy {va:.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=("curate", "prepare", "learn"))
    ap.add_argument("--out", required=True, help="working directory (raw/, train/, checkpoints/)")
    ap.add_argument("--h5io", help="path of libh5io.so (curate, prepare)")
    a = ap.parse_args()
    if a.phase != "learn" and not a.h5io:
        ap.error(f"{a.phase} needs --h5io")
    {"curate": curate, "prepare": prepare, "learn": learn}[a.phase](a)


if __name__ == "__main__":
    main()
