"""What the lineage tests share: a fresh work directory with its provenance directory, an
environment without provio's or HDF5's settings, and the mpiexec arguments that trace every rank
through the preload library and the VOL connector."""
import os
import shutil


def fresh_work(path):
    """(work, prov): `path` made empty and absolute, and its provenance directory."""
    work = os.path.realpath(path)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return work, os.path.join(work, "prov")


def clean_env(mpi=False):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "HDF5_"))}
    if mpi:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1",
                   PRTE_MCA_rmaps_default_mapping_policy=":oversubscribe")
    return env


def traced_ranks(preload, prov, plugins):
    """mpiexec -x arguments: every rank under the preload library and the VOL connector."""
    return ["-x", "LD_PRELOAD=" + preload, "-x", "PROVIO_DIR=" + prov, "-x", "HDF5_VOL_CONNECTOR=provio",
            "-x", "HDF5_PLUGIN_PATH=" + plugins]
