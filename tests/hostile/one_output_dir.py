"""One process, one output directory (issue 29 item 9): chdir_threads, under the preload library
with the default output directory and with a relative PROVIO_DIR, writes every thread's file into
the one directory resolved from where it started, and nothing under the directory it moved to.
    one_output_dir.py <libprovio_posix.so> <chdir_threads>"""
import os
import subprocess
import sys
import tempfile

import rdflib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run_case(preload, program, provio_dir):
    with tempfile.TemporaryDirectory(prefix="provio-one-dir-") as work:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "LD_PRELOAD"))}
        env["LD_PRELOAD"] = preload
        if provio_dir:
            env["PROVIO_DIR"] = provio_dir
        p = subprocess.run([program, work], env=env, cwd=work, capture_output=True, text=True, timeout=60)
        if p.returncode != 0 or p.stdout != "done\n":
            fail(f"chdir_threads exited {p.returncode}: {p.stdout!r} {p.stderr!r}")
        expected = os.path.join(work, provio_dir or "provio/local")
        files = zstd_raw.raw_files(work, recursive=True)
        elsewhere = [f for f in files if os.path.dirname(f) != expected]
        if elsewhere:
            fail(f"PROVIO_DIR={provio_dir!r}: provenance outside {expected}: {elsewhere}")
        g = rdflib.Graph()
        for f in files:
            zstd_raw.parse(f, g)
        paths = {str(o) for o in g.objects(None, rdflib.URIRef("http://www.w3.org/ns/provio#path"))}
        for name in (os.path.join(work, "one.txt"), os.path.join(work, "sub", "two.txt")):
            if name not in paths:
                fail(f"PROVIO_DIR={provio_dir!r}: {name} not recorded in {expected} ({sorted(paths)})")


def main():
    preload, program = sys.argv[1:3]
    for provio_dir in ("", "rel-out"):
        run_case(preload, program, provio_dir)
    print("one_output_dir: ok")


if __name__ == "__main__":
    main()
