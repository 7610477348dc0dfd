"""What bench/posix/run and bench/posix/instructions share: the benchmark's calls, its program and
the environment that preloads one build's library."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402

OPS = ["write_1B", "pread_4KiB", "open_close", "stat", "fopen_fwrite_fclose"]


def posix_bench():
    return common.built("bench", "posix", "posix_bench")


def traced_env(work, build, level):
    """The environment of one run: natively when `level` is empty, else under `build`'s preload
    library at that level, its provenance into WORK/prov."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    if level and "PROVIO_COMPRESS" in os.environ:  # e.g. none: the cost of plain raw files
        env["PROVIO_COMPRESS"] = os.environ["PROVIO_COMPRESS"]
    if level:
        # LD_LIBRARY_PATH wins over the shim's RUNPATH: the libprovio of the same build.
        env.update(LD_PRELOAD=common.built("src", "posix", "libprovio_posix.so", build=build), PROVIO_LEVEL=level,
                   PROVIO_DIR=os.path.join(work, "prov"), LD_LIBRARY_PATH=common.built("src", build=build))
    return env
