#!/usr/bin/python3
"""h5py with the MPI-IO driver: every rank writes its 1024 doubles of dataset /x collectively.
h5py_mpio.py FILE (under mpirun)"""
import sys

import h5py
from mpi4py import MPI

comm = MPI.COMM_WORLD
n = 1024
with h5py.File(sys.argv[1], "w", driver="mpio", comm=comm) as f:
    x = f.create_dataset("x", (comm.size * n,), "f8")
    with x.collective:
        x[comm.rank * n:(comm.rank + 1) * n] = float(comm.rank)
