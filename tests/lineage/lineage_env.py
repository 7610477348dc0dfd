"""What the lineage tests share: a fresh work directory with its provenance directory, an
environment without provio's or HDF5's settings, and the mpiexec arguments that trace every rank
through the preload library and the VOL connector."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import harness  # noqa: E402


def fresh_work(path):
    """(work, prov): `path` made empty and absolute, and its provenance directory."""
    work = harness.fresh_dir(os.path.realpath(path))
    return work, os.path.join(work, "prov")


def clean_env(mpi=False):
    return harness.clean_env(drop=("PROVIO_", "HDF5_"), mpi=mpi)


def traced_ranks(preload, prov, plugins):
    """mpiexec -x arguments: every rank under the preload library and the VOL connector."""
    return ["-x", "LD_PRELOAD=" + preload, "-x", "PROVIO_DIR=" + prov, "-x", "HDF5_VOL_CONNECTOR=provio",
            "-x", "HDF5_PLUGIN_PATH=" + plugins]
