#!/usr/bin/python3
"""A Top Reco-like training (seed 000's GNN use case, small): a PyTorch model trained on an HDF5
file read through h5py by the worker processes of a torch.utils.data.DataLoader, for a few
hyperparameter settings, recorded with provio's Python API.

    train.py events.h5 --out DIR [--epochs 2] [--workers 2] [--min-jets 3]

The data preselection (events with at least --min-jets jets, from /njets) is a provio data
selection; each setting is a run (a provio task with its hyperparameters) whose epochs record
validation accuracy and loss and training loss, and rewrite the run's checkpoint DIR/run-N.pt
(torch.save) as a provio model record. Under the VOL connector every H5Dread of the workers is
recorded, so prov-query tells which datasets of events.h5 each run read; with the preload library
too, the checkpoints' writes. Seeded and single-threaded: the same accuracies on every run.
"""
import argparse
import os

import h5py
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

import provio

SWEEP = [
    {"lr": 0.002, "hidden": 16},
    {"lr": 0.01, "hidden": 16},
    {"lr": 0.01, "hidden": 64},
]
BATCH = 64


class Events(Dataset):
    """Events of an HDF5 file by index. The file is opened on first use in the process that reads
    (each DataLoader worker): an h5py file must not be shared across fork."""

    def __init__(self, path, indices):
        self.path, self.indices, self.file = path, indices, None

    def __len__(self):
        return len(self.indices)

    def __getitem__(self, i):
        if self.file is None:
            self.file = h5py.File(self.path, "r")
        k = int(self.indices[i])
        jets = self.file["jets"][k]
        jets[:, 0] /= 100.0  # pt in units of 100 GeV
        return torch.from_numpy(jets.reshape(-1)), torch.tensor(float(self.file["label"][k]))


def loader(data, indices, workers, shuffle, seed):
    # fork: how DataLoader starts its workers on Linux (Python <= 3.13); each ends with os._exit.
    return DataLoader(Events(data, indices), batch_size=BATCH, shuffle=shuffle, num_workers=workers,
                      multiprocessing_context="fork" if workers else None,
                      generator=torch.Generator().manual_seed(seed))


def evaluate(model, batches):
    model.eval()
    loss_sum, right, n = 0.0, 0, 0
    with torch.no_grad():
        for x, y in batches:
            logit = model(x).squeeze(1)
            loss_sum += float(torch.nn.functional.binary_cross_entropy_with_logits(logit, y, reduction="sum"))
            right += int(((logit > 0) == (y > 0.5)).sum())
            n += len(y)
    return loss_sum / n, right / n


def run(i, setting, data, split, a):
    train_idx, val_idx = split
    with provio.task(f"run-{i}"):
        hp = provio.hyperparameters(lr=setting["lr"], hidden=setting["hidden"], batch_size=BATCH,
                                    epochs=a.epochs, workers=a.workers)
        torch.manual_seed(i)
        model = torch.nn.Sequential(torch.nn.Linear(32, setting["hidden"]), torch.nn.ReLU(),
                                    torch.nn.Linear(setting["hidden"], 1))
        opt = torch.optim.Adam(model.parameters(), lr=setting["lr"])
        train = loader(data, train_idx, a.workers, True, i)
        val = loader(data, val_idx, a.workers, False, i)
        ckpt = os.path.join(a.out, f"run-{i}.pt")
        for epoch in range(1, a.epochs + 1):
            with provio.task(f"epoch {epoch}"):
                model.train()
                total, n = 0.0, 0
                for x, y in train:
                    opt.zero_grad()
                    loss = torch.nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(1), y)
                    loss.backward()
                    opt.step()
                    total += float(loss) * len(y)
                    n += len(y)
                val_loss, val_acc = evaluate(model, val)
                provio.metric(step=epoch, stage="training", loss=total / n)
                provio.metric(step=epoch, stage="validation", accuracy=val_acc, loss=val_loss)
                torch.save(model.state_dict(), ckpt)
                provio.model(ckpt, config=hp, step=epoch, name="top-reco")
                print(f"run-{i} {setting} epoch {epoch}: validation accuracy {val_acc:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--min-jets", type=int, default=3)
    a = ap.parse_args()
    torch.set_num_threads(1)
    os.makedirs(a.out, exist_ok=True)
    with provio.workflow("top-reco", campaign="top-reco-sweep"):
        provio.program_type("training")
        with provio.task("preselect") as t:
            provio.data_selection(min_jets=a.min_jets)
            with h5py.File(a.data, "r") as f:
                keep = np.flatnonzero(f["njets"][...] >= a.min_jets)
            t.results(events=len(keep))
        cut = len(keep) * 4 // 5
        for i, setting in enumerate(SWEEP, 1):
            run(i, setting, a.data, (keep[:cut], keep[cut:]), a)


if __name__ == "__main__":
    main()
