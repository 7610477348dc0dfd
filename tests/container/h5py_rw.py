#!/usr/bin/python3
"""A small h5py program for the container test: writes a group, a dataset and an attribute, then
reads the dataset back. h5py_rw.py FILE"""
import sys

import h5py
import numpy as np

with h5py.File(sys.argv[1], "w") as f:
    f.create_group("run").create_dataset("temperature", data=np.arange(256, dtype=np.float64))
    f["run"].attrs["units"] = "K"
with h5py.File(sys.argv[1], "r") as f:
    assert f["run/temperature"][...].sum() == 255 * 256 / 2
