#!/usr/bin/python3
"""netCDF4-python on HDF5: `write FILE` creates group /forecast with dimensions time (unlimited),
lat (3), lon (4), a variable temperature(time, lat, lon) with a units attribute and two time
steps; `read FILE` reads the variable back and checks it."""
import sys

import netCDF4
import numpy as np

mode, path = sys.argv[1], sys.argv[2]
values = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4)
if mode == "write":
    with netCDF4.Dataset(path, "w", format="NETCDF4") as nc:
        g = nc.createGroup("forecast")
        g.createDimension("time", None)
        g.createDimension("lat", 3)
        g.createDimension("lon", 4)
        t = g.createVariable("temperature", "f8", ("time", "lat", "lon"))
        t.units = "K"
        t[0:2] = values
else:
    with netCDF4.Dataset(path, "r") as nc:
        assert (nc["forecast/temperature"][...] == values).all()
