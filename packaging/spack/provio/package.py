# Spack recipe for provio: an example for sites (docs/hpc-centres.md), not tested in CI (Spack is
# not installed there). Put it in a repository of your own:
#   spack repo create myrepo && cp -r packaging/spack/provio myrepo/packages/
#   spack install provio ^hdf5@1.14 +mpi
# What it installs is what `cmake --install` installs, so tests/packaging covers its contents.
# The dependency names are Spack's builtin ones as we know them; check them against your Spack.
from spack.package import *


class Provio(CMakePackage):
    """Provenance of scientific data on HPC systems: an HDF5 VOL connector and a POSIX preload
    library record W3C PROV; prov-merge, prov-query, prov-viz and prov-run use it."""

    # Where your site's copy of the repository lives: set both before use.
    homepage = "https://example.org/provio"
    git = "https://example.org/provio.git"

    license("BSD-3-Clause")

    version("main", branch="main")

    variant("python", default=True, description="Install the Python workflow API")

    depends_on("cmake@3.25:", type="build")
    depends_on("ninja", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("mpi")
    depends_on("hdf5@1.14:+mpi+hl")
    depends_on("redland")
    depends_on("raptor2")
    depends_on("rasqal")
    depends_on("zstd")  # compressed raw files
    depends_on("googletest", type=("build", "test"))
    depends_on("graphviz", type="run")
    # prov-query sparql's engine: Oxigraph's npm package under node (docs/sparql.md). Spack has no
    # package for it: `npm install oxigraph@0.5.11 sparqljs@3.7.4` into a directory and give it at configure
    # time (-DPROVIO_OXIGRAPH_DIR) or at run time ($PROVIO_OXIGRAPH_DIR).
    depends_on("node-js", type="run")
    depends_on("python@3.9:", type=("build", "run"), when="+python")
    depends_on("py-rdflib", type="test")

    generator("ninja")

    def cmake_args(self):
        args = [self.define("PROVIO_WERROR", False)]
        if self.spec.satisfies("+python"):
            args.append(self.define("PROVIO_PYTHON", self.spec["python"].command.path))
        return args

    def setup_run_environment(self, env):
        # Available, not active: a job turns recording on with prov-run.
        env.set("PROVIO_PLUGIN_DIR", self.prefix.lib.provio.plugins)
        env.set("PROVIO_PRELOAD", join_path(self.prefix.lib, "libprovio_posix.so"))
