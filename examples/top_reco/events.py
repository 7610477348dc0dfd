#!/usr/bin/python3
"""Writes a small synthetic collision-event file for train.py, through h5py (so the VOL connector
records it like any h5py program's file).

    events.py events.h5 [--events 4096] [--seed 7]

Each event has up to 8 jets of 4 features (transverse momentum pt in GeV, eta, phi, b-tag
score), zero-padded: /jets (N, 8, 4) float32, /njets (N,) int32 and /label (N,) int8, 1 for a
top-quark-like event (three jets whose pt sum is high and one of them b-tagged), else 0.
Synthetic and seeded: the same file on every machine, no download.
"""
import argparse

import h5py
import numpy as np

MAX_JETS = 8


def make(n, seed):
    rng = np.random.default_rng(seed)
    njets = rng.integers(2, MAX_JETS + 1, n).astype(np.int32)
    jets = np.zeros((n, MAX_JETS, 4), np.float32)
    pt = rng.exponential(40.0, (n, MAX_JETS)) + 10.0
    jets[:, :, 0] = pt
    jets[:, :, 1] = rng.normal(0, 1.5, (n, MAX_JETS))
    jets[:, :, 2] = rng.uniform(-np.pi, np.pi, (n, MAX_JETS))
    jets[:, :, 3] = rng.uniform(0, 1, (n, MAX_JETS))
    present = np.arange(MAX_JETS)[None, :] < njets[:, None]
    jets *= present[:, :, None]
    top3 = np.sort(jets[:, :, 0], axis=1)[:, -3:].sum(axis=1)
    btag = (jets[:, :3, 3] > 0.7).any(axis=1)
    label = ((top3 > 160) & btag & (njets >= 3)).astype(np.int8)
    flip = rng.uniform(0, 1, n) < 0.05  # label noise: no model is perfect
    label[flip] ^= 1
    return jets, njets, label


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--events", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    jets, njets, label = make(a.events, a.seed)
    with h5py.File(a.out, "w") as f:
        f.create_dataset("jets", data=jets)
        f.create_dataset("njets", data=njets)
        f.create_dataset("label", data=label)
        f.attrs["generator"] = "examples/top_reco/events.py"


if __name__ == "__main__":
    main()
