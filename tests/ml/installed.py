"""The installed provio, as a user has it: `cmake --install` into a prefix (ctest fixture
ml.install), the Python package imported from there, programs run under the installed preload
library and VOL connector, the installed prov-merge / prov-query answering. Shared by the tests
of this directory; checks come from tests/prov_query/oracle.py."""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "prov_query"))
import oracle  # noqa: E402,F401  (re-exported: check, finish, q, Tool)


def arguments(extra=()):
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--pydir", required=True, help="the package's directory relative to the prefix")
    ap.add_argument("--libdir", required=True)
    ap.add_argument("--plugin-dir", required=True)
    ap.add_argument("--work", required=True)
    for name in extra:
        ap.add_argument(name, required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    return a


def plugin_path(plugins):
    """The installed plugin directory, or with several HDF5 flavours every flavour's directory in
    it: a plugin refuses an HDF5 it was not built for, and HDF5 then tries the next one."""
    flavours = sorted(d for d in os.listdir(plugins) if os.path.isdir(os.path.join(plugins, d)))
    return ":".join(os.path.join(plugins, d) for d in flavours) or plugins


class Installed:
    def __init__(self, a):
        self.a = a
        self.query = oracle.Tool(os.path.join(a.prefix, "bin", "prov-query"))
        self.merge = os.path.join(a.prefix, "bin", "prov-merge")

    def env(self, provio_dir):
        """Environment of a traced program: installed package, preload library, VOL connector."""
        a = self.a
        env = dict(os.environ)
        env.update(PROVIO_DIR=provio_dir, PYTHONPATH=os.path.join(a.prefix, a.pydir),
                   LD_PRELOAD=os.path.join(a.prefix, a.libdir, "libprovio_posix.so"),
                   HDF5_PLUGIN_PATH=plugin_path(os.path.join(a.prefix, a.plugin_dir)),
                   HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}")
        return env

    def python(self, provio_dir, *args):
        """Runs a Python script traced; returns its stdout."""
        r = subprocess.run([self.a.python, *args], env=self.env(provio_dir), cwd=self.a.work,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"{' '.join(args)}: exit {r.returncode}\n{r.stderr[-3000:]}")
        return r.stdout

    def merged(self, provio_dir, out):
        subprocess.run([self.merge, "-q", "-o", out, provio_dir], check=True)
        return out
