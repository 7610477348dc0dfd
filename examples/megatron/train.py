#!/usr/bin/python3
"""A Megatron-LM-like training with PyTorch checkpoints (seed 000's use case, small): a training
saves its checkpoint with torch.save every iteration under one name, as Megatron's --save does;
a later job resumes from it (--load) under a configuration of its own, which may differ from the
one the checkpoint was trained with. provio records each configuration and checkpoint version
through its Python API and, under the preload library, the reads of torch.load, so
`prov-query checkpoints` names every load made under a different configuration.

    train.py train  --config A --save ckpt.pt [--iterations 3]
    train.py resume --config B --load ckpt.pt --save ckpt-b.pt [--iterations 2]

The checkpoint holds the model, the optimizer state, the iteration and the configuration, like
Megatron's; like Megatron, resuming does not refuse a changed configuration: it trains on.
"""
import argparse

import torch

import provio

CONFIGS = {
    "A": {"lr": 0.001, "hidden": 32, "layers": 2, "micro_batch": 8, "seed": 1},
    "B": {"lr": 0.002, "hidden": 32, "layers": 2, "micro_batch": 8, "seed": 1},  # lr changed
}
VOCAB, SEQ = 64, 16


def model_of(hp):
    torch.manual_seed(hp["seed"])
    layers = [torch.nn.Embedding(VOCAB, hp["hidden"])]
    for _ in range(hp["layers"]):
        layers += [torch.nn.Linear(hp["hidden"], hp["hidden"]), torch.nn.GELU()]
    layers.append(torch.nn.Linear(hp["hidden"], VOCAB))
    return torch.nn.Sequential(*layers)


def iterate(model, opt, hp, config, save, first, count):
    """`count` iterations of next-token prediction on synthetic tokens, each rewriting `save`."""
    gen = torch.Generator().manual_seed(hp["seed"] * 1000 + first)
    for it in range(first, first + count):
        with provio.task("iteration"):
            tokens = torch.randint(0, VOCAB, (hp["micro_batch"], SEQ + 1), generator=gen)
            logits = model(tokens[:, :-1])
            loss = torch.nn.functional.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            provio.metric("loss", float(loss), step=it, stage="training")
            torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "iteration": it,
                        "config": hp}, save)
            provio.model(save, config=config, step=it, name="gpt")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("phase", choices=("train", "resume"))
    ap.add_argument("--config", choices=sorted(CONFIGS), required=True)
    ap.add_argument("--save", required=True)
    ap.add_argument("--load")
    ap.add_argument("--iterations", type=int, default=None)
    a = ap.parse_args()
    if a.phase == "resume" and not a.load:
        ap.error("resume needs --load")
    torch.set_num_threads(1)
    hp = CONFIGS[a.config]
    model = model_of(hp)
    opt = torch.optim.Adam(model.parameters(), lr=hp["lr"])
    with provio.workflow("megatron", campaign="gpt-small"):
        with provio.task(f"{a.phase} {a.config}"):
            config = provio.hyperparameters(hp, name=f"config {a.config}")
            first = 1
            if a.phase == "resume":
                state = torch.load(a.load, weights_only=True)  # the load prov-query checks
                model.load_state_dict(state["model"])
                opt.load_state_dict(state["optimizer"])
                for group in opt.param_groups:  # this run's learning rate, as Megatron's scheduler sets it
                    group["lr"] = hp["lr"]
                first = state["iteration"] + 1
                if state["config"] != hp:
                    changed = sorted(k for k in hp if state["config"].get(k) != hp[k])
                    print(f"resuming from iteration {first - 1} with changed {', '.join(changed)}")
            iterate(model, opt, hp, config, a.save, first, a.iterations or (3 if a.phase == "train" else 2))


if __name__ == "__main__":
    main()
