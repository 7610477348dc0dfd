"""What the Python tests here share: their command line, a fresh work directory, an environment
without provio's settings, running a program with its output captured, and collecting the checks
that failed.

    args = harness.options("--prov-query", "--work")     # each required, with a value
    work = harness.fresh_dir(args.work)
    p = harness.run([args.prov_query, "stats", work], env={"PROVIO_DIR": prov}, expect=0)
    checks = harness.Checks()
    checks(p.stdout != "", "stats printed nothing")
    checks.finish("ok")                                   # exit 1 if any check failed

A test's own PROVIO_* settings never leak into the programs it starts: each run gets exactly the
environment the test gives it on top of a clean one.
"""
import argparse
import os
import shutil
import subprocess
import sys

# What mpirun needs to start several ranks as root on a machine with fewer cores than ranks.
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1",
           "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe"}


def options(*names, positional=()):
    """The parsed command line: each of `positional`, then each of `names`, required, with a value."""
    ap = argparse.ArgumentParser()
    for name in positional:
        ap.add_argument(name)
    for name in names:
        ap.add_argument(name, required=True)
    return ap.parse_args()


def fresh_dir(path):
    """`path` made empty (created if missing), returned as given."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def clean_env(drop=("PROVIO_",), mpi=False):
    """This process's environment without the variables whose names start with one of `drop`.
    `mpi`: with MPI_ENV, and without the rank a test run under mpirun would hand down."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(tuple(drop))}
    if mpi:
        env = {k: v for k, v in env.items() if not k.startswith(("OMPI_COMM_WORLD", "PMIX_"))}
        env.update(MPI_ENV)
    return env


def run(cmd, env=None, expect=None, base=None, timeout=120):
    """Runs `cmd` (items made strings) with `env` over `base` (clean_env() when not given), its
    output captured as text. With `expect`, another exit status raises AssertionError showing the
    end of both outputs."""
    full = dict(clean_env() if base is None else base)
    full.update(env or {})
    p = subprocess.run([str(c) for c in cmd], env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       errors="replace", timeout=timeout)
    if expect is not None and p.returncode != expect:
        raise AssertionError(f"{cmd} exited {p.returncode}, expected {expect}\nstdout:\n{p.stdout[-3000:]}\n"
                             f"stderr:\n{p.stderr[-3000:]}")
    return p


class Checks:
    """Checks that go on after a failure: each failure is printed when it happens, and finish()
    ends the script with exit status 1 if there was any."""

    def __init__(self):
        self.failures = []

    def __call__(self, cond, what):
        if not cond:
            self.failures.append(what)
            print("FAIL:", what, file=sys.stderr)

    def finish(self, passed):
        if self.failures:
            print(f"{len(self.failures)} failure(s)", file=sys.stderr)
            sys.exit(1)
        print(passed)
