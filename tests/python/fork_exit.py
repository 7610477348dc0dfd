#!/usr/bin/python3
"""A Python program whose worker processes end as PyTorch DataLoader workers do: forked by
multiprocessing and ended with os._exit (multiprocessing's fork start method leaves every child
that way), after reading an HDF5 dataset through the connector (h5io.py) and a text file.

    fork_exit.py H5IO_LIBRARY WORKDIR [WORKERS]
"""
import multiprocessing
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "provlake"))
from h5io import H5IO  # noqa: E402


def work(library, h5, text):
    H5IO(library).read(h5, "/x")
    with open(text) as f:
        f.read()


def main():
    library, work_dir = sys.argv[1], sys.argv[2]
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    h5, text = os.path.join(work_dir, "data.h5"), os.path.join(work_dir, "data.txt")
    H5IO(library).write(h5, {"/x": [[1.0, 2.0], [3.0, 4.0]]})
    with open(text, "w") as f:
        f.write("data\n")
    fork = multiprocessing.get_context("fork")
    procs = [fork.Process(target=work, args=(library, h5, text)) for _ in range(workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    codes = [p.exitcode for p in procs]
    if codes != [0] * workers:
        sys.exit(f"fork_exit.py: workers ended with {codes}")


if __name__ == "__main__":
    main()
