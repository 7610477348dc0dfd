#!/usr/bin/python3
"""netCDF4-python and h5py's MPI-IO driver under the VOL connector (issue 35), in a distribution
root whose h5py, netCDF4 and mpi4py use the distribution's HDF5: the serial flavour's plugin for
netCDF4 (Debian builds netCDF on serial HDF5), the MPI flavour's for h5py over MPI-IO. Asserts the
exact HDF5 objects and the transfers recorded.

    distro_python_test.py --build DIR --prov-merge EXE --work DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

import rdflib

P = rdflib.Namespace("http://www.w3.org/ns/provio#")
PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
HERE = os.path.dirname(os.path.abspath(__file__))
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1",
           "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe"}


def plugin_dir(build, flavour):
    d = os.path.join(build, "plugins", flavour)
    return d if os.path.isdir(d) else os.path.join(build, "plugins")


def traced(a, name, flavour, argv):
    work = os.path.join(a.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "HDF5_"))}
    env.update(MPI_ENV, HDF5_PLUGIN_PATH=plugin_dir(a.build, flavour),
               HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}", PROVIO_DIR=os.path.join(work, "prov"))
    return work, env


def merged(a, work):
    out = os.path.join(work, "merged.ttl")
    subprocess.run([a.prov_merge, "-q", os.path.join(work, "prov"), "-o", out], check=True)
    return rdflib.Graph().parse(out, format="turtle")


def activities(g, relation):
    """{(api, entity IRI): [activity]} for provio:wasWrittenBy or provio:wasReadBy."""
    out = {}
    for entity, act in g.subject_objects(relation):
        out.setdefault((str(g.value(act, P.api)), str(entity)), []).append(act)
    return out


def objects(g, file_iri, cls):
    return sorted(str(s)[len(file_iri):] for s in g.subjects(rdflib.RDF.type, cls) if str(s).startswith(file_iri + "#"))


def netcdf4(a, fails):
    work, env = traced(a, "netcdf4", "serial", None)
    path = os.path.join(work, "forecast.nc")
    for mode in ("write", "read"):
        subprocess.run([sys.executable, os.path.join(HERE, "netcdf4_rw.py"), mode, path], env=env, check=True)
    g = merged(a, work)
    f = "file://" + os.path.realpath(path)
    if (rdflib.URIRef(f), rdflib.RDF.type, P.File) not in g:
        fails.append(f"netCDF4: no File {f}")
    if objects(g, f, P.Group) != ["#/", "#/forecast"]:
        fails.append(f"netCDF4: groups {objects(g, f, P.Group)}")
    # Each dimension without a coordinate variable is an HDF5 dataset of its own (a dimension scale).
    want = ["#/forecast/lat", "#/forecast/lon", "#/forecast/temperature", "#/forecast/time"]
    if objects(g, f, P.Dataset) != want:
        fails.append(f"netCDF4: datasets {objects(g, f, P.Dataset)}, expected {want}")
    t = f + "#/forecast/temperature"
    writes, reads = activities(g, P.wasWrittenBy), activities(g, P.wasReadBy)
    for api, have in (("H5Dwrite", writes), ("H5Dread", reads)):
        acts = have.get((api, t), [])
        total = sum(int(g.value(x, P.bytes)) for x in acts)
        if total != 2 * 3 * 4 * 8:
            fails.append(f"netCDF4: {api} of {t}: {total} bytes in {len(acts)} activities, expected 192")


def h5py_mpio(a, fails):
    work, env = traced(a, "h5py_mpio", "openmpi", None)
    path = os.path.join(work, "x.h5")
    subprocess.run(["mpirun", "-np", "2", sys.executable, os.path.join(HERE, "h5py_mpio.py"), path],
                   env=env, check=True)
    g = merged(a, work)
    f = "file://" + os.path.realpath(path)
    if objects(g, f, P.Dataset) != ["#/x"]:
        fails.append(f"h5py MPI-IO: datasets {objects(g, f, P.Dataset)}")
    acts = activities(g, P.wasWrittenBy).get(("H5Dwrite", f + "#/x"), [])
    ranks = set()
    for x in acts:
        thread = g.value(x, PROV.wasAssociatedWith)
        ranks.add(str(g.value(g.value(thread, PROV.actedOnBehalfOf), P.rank)))
        if int(g.value(x, P.bytes)) != 8192 or str(g.value(x, P.transfer)) != "collective":
            fails.append(f"h5py MPI-IO: {x}: bytes {g.value(x, P.bytes)}, transfer {g.value(x, P.transfer)}")
    if len(acts) != 2 or len(ranks) != 2:
        fails.append(f"h5py MPI-IO: {len(acts)} H5Dwrite activities of /x from ranks {sorted(ranks)}, expected 2 ranks")


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--build", "--prov-merge", "--work"):
        ap.add_argument(opt, required=True)
    a = ap.parse_args()
    fails = []
    netcdf4(a, fails)
    h5py_mpio(a, fails)
    for x in fails:
        print("FAIL:", x, file=sys.stderr)
    if fails:
        sys.exit(1)
    print("ok: netCDF4 (serial plugin) and h5py over MPI-IO (MPI plugin) recorded, objects and bytes exact")


if __name__ == "__main__":
    main()
