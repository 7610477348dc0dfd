#!/usr/bin/python3
"""docs/cookbook.md is real: this test runs the three workloads the cookbook is about through
prov-run (the DASSA pipeline of seed 000, the h5bench-style write/read, the ML sweep of seed 002),
then every `$ command` block of the cookbook in its workload's directory, and compares what the
tools print now with what the page shows.

  cookbook_test.py --bin BUILD_DIR --source SOURCE_DIR [--workloads A,B] [--update]

--workloads picks the workloads to run (default: dassa, h5bench, ml); the blocks of the others are
left as they are. topreco and megatron need h5py and PyTorch with an HDF5 provio was built for:
`docs.cookbook_torch` runs them in the trixie root (scripts/distro-test.sh).

--update rewrites the page's outputs from this run (after a change to a tool's answers: commit the
page with the change). Values that differ between runs and machines are masked before comparing:
times, durations, pids, hosts, job and run ids, the scratch directory; rows are compared as a set,
since ties in elapsed time may order them differently. Counts and bytes are compared exactly.
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile

SCRATCH = "/scratch/demo"    # what the page shows for the directory the workloads ran in,
HOST = "nid00042"            # this machine's name
INSTALL = "/opt/provio"      # and the build directory the programs came from
BLOCK = re.compile(r"<!-- cookbook: (\w+) -->\n```\n(.*?)```\n", re.S)
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1",
           "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe"}


def environment(build):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PROVIO_", "HDF5_", "PMIX_", "OMPI_COMM_WORLD")) and k != "LD_PRELOAD"}
    tools = [os.path.join(build, "tools", t) for t in ("prov-run", "prov-merge", "prov-query", "prov-viz")]
    programs = [os.path.join(build, "examples", e) for e in ("dassa", "h5bench")]
    env["PATH"] = ":".join(tools + programs + ["/usr/bin", "/bin", env.get("PATH", "")])
    env["PYTHONPATH"] = os.path.join(build, "python")
    env.update(MPI_ENV)
    return env


def sh(command, cwd, env):
    p = subprocess.run(["sh", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    if p.returncode != 0:
        raise AssertionError(f"in {cwd}: {command}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def dassa(scratch, build, source, env):
    sh("prov-run -q --no-posix -w dassa -- mpirun -np 2 acquire WestSac.h5 >/dev/null", scratch, env)
    sh("prov-run -q --no-posix -w dassa -- mpirun -np 2 decimate WestSac.h5 decimate.h5 >/dev/null", scratch, env)
    sh("prov-run -q --no-posix -w dassa -- analyze decimate.h5 >/dev/null", scratch, env)


def h5bench(scratch, build, source, env):
    sh("prov-run -q --no-posix -w h5bench -- mpirun -np 2 vpic_write particles.h5 4096 1 >/dev/null", scratch, env)
    sh("prov-run -q --no-posix -w h5bench -- mpirun -np 2 bdcats_read particles.h5 4096 1 >/dev/null", scratch, env)


def ml(scratch, build, source, env):
    train = os.path.join(source, "examples", "ml_sweep", "train.py")
    helper = os.path.join(build, "examples", "ml_sweep", "libh5ckpt.so")
    sh(f"prov-run -q --no-posix -- /usr/bin/python3 {train} --out run --epochs 3 --h5ckpt {helper} >/dev/null",
       scratch, env)


def topreco(scratch, build, source, env):
    example = os.path.join(source, "examples", "top_reco")
    sh(f"prov-run -q --no-posix -- /usr/bin/python3 {example}/events.py events.h5 >/dev/null", scratch, env)
    sh(f"prov-run -q --no-posix -- /usr/bin/python3 {example}/train.py events.h5 --out run >/dev/null", scratch, env)


def megatron(scratch, build, source, env):
    train = os.path.join(source, "examples", "megatron", "train.py")
    sh(f"prov-run -q -- /usr/bin/python3 {train} train --config A --save ckpt.pt >/dev/null", scratch, env)
    sh(f"prov-run -q -- /usr/bin/python3 {train} resume --config B --load ckpt.pt --save ckpt.pt >/dev/null",
       scratch, env)


# The workloads of the page's 'Setup' blocks, each run in a directory of its name.
WORKLOADS = {"dassa": dassa, "h5bench": h5bench, "ml": ml, "topreco": topreco, "megatron": megatron}
DEFAULT_WORKLOADS = "dassa,h5bench,ml"


def placeholders(text, scratch, build):
    """What the page shows instead of this run's directories and host."""
    return text.replace(scratch, SCRATCH).replace(build, INSTALL).replace(socket.gethostname(), HOST)


def realign(output, replace):
    """`replace` applied to a prov-query table cell by cell, the columns re-aligned, so the page's
    tables stay straight when a placeholder is shorter than the path it stands for."""
    lines = output.split("\n")
    if len(lines) < 2 or not re.fullmatch(r"-+(  -+)*", lines[1]):
        return replace(output)
    starts = [m.start() for m in re.finditer(r"-+", lines[1])]
    rows = []
    for line in lines:
        if not line:
            continue
        bounds = starts[1:] + [len(line) + 1]
        rows.append([replace(line[b:e].rstrip()) for b, e in zip(starts, bounds)])
    widths = [max(len(r[i]) for j, r in enumerate(rows) if j != 1) for i in range(len(starts))]
    rows[1] = ["-" * w for w in widths]
    return "".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() + "\n" for r in rows)


def mask(text):
    rules = [
        (r"python3\.\d+", "python3"),
        (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "<time>"),
        (r"urn:provio:[^\s,]*", "<urn>"),
        (r"\bpid \d+", "pid <pid>"),
        (r"\bmpi-\d+\b", "mpi-<id>"),
        (r"\brun-\d{8}T\d{6}Z-\d+\b", "run-<id>"),
        (r"\b\d+\.\d+(e[-+]?\d+)?\b", "<real>"),
        (r"-{2,}", "--"),
        (r"[ \t]+", " "),
    ]
    for pattern, repl in rules:
        text = re.sub(pattern, repl, text)
    return sorted(line.strip() for line in text.splitlines() if line.strip())


def commands_of(block):
    """The `$ ...` lines of a block; a command continues on the next line after a trailing
    backslash or inside an open single-quoted string."""
    commands, current = [], None
    for line in block.splitlines():
        if current is not None:
            current += "\n" + line
        elif line.startswith("$ "):
            current = line[2:]
        else:
            continue
        if not current.endswith("\\") and current.count("'") % 2 == 0:
            commands.append(current)
            current = None
    return commands


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--workloads", default=DEFAULT_WORKLOADS)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    chosen = a.workloads.split(",")
    unknown = [w for w in chosen if w not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workloads {unknown} (known: {', '.join(WORKLOADS)})")
    page_path = os.path.join(a.source, "docs", "cookbook.md")
    page = open(page_path).read()
    env = environment(a.bin)
    scratch = tempfile.mkdtemp(prefix="provio-cookbook-")
    try:
        for w in chosen:
            os.makedirs(os.path.join(scratch, w))
            WORKLOADS[w](os.path.join(scratch, w), a.bin, a.source, env)
        failures = []

        build = os.path.abspath(a.bin)

        def answer(m):
            workload, block = m.group(1), m.group(2)
            if workload not in chosen:
                return m.group(0)
            out = ""
            for command in commands_of(block):
                result = sh(command, os.path.join(scratch, workload), env)
                out += "$ " + command + "\n" + realign(result, lambda t: placeholders(t, scratch, build))
            if mask(out) != mask(block):
                failures.append((workload, commands_of(block), block, out))
            return f"<!-- cookbook: {workload} -->\n```\n{out}```\n"

        new_page = BLOCK.sub(answer, page)
        count = sum(1 for w, _ in BLOCK.findall(page) if w in chosen)
        assert count >= 2 * len(chosen), f"only {count} cookbook blocks of {a.workloads} found in {page_path}"
        if a.update:
            with open(page_path, "w") as f:
                f.write(new_page)
            print(f"updated {count} blocks of {page_path}")
            return
        for workload, commands, shown, now in failures:
            print(f"docs/cookbook.md ({workload}): {commands} answers differently now.\n--- page:\n{shown}"
                  f"--- now:\n{now}", file=sys.stderr)
        if failures:
            print("regenerate with: tests/docs/cookbook_test.py --bin BUILD --source . --update", file=sys.stderr)
            sys.exit(1)
        print(f"ok: {count} cookbook blocks answer as the page shows")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
