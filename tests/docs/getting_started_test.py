#!/usr/bin/python3
"""docs/getting-started.md works as written: its commands (the indented lines) run in order in one
shell, with HOME a fresh directory, the tools and example programs of this build on PATH, and
the page's Python block saved as sweep.py; then its questions must find what the steps did.

  getting_started_test.py --bin BUILD_DIR --source SOURCE_DIR
"""
import argparse
import os
import re
import shutil
import subprocess
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    page = open(os.path.join(a.source, "docs", "getting-started.md")).read()
    python = re.search(r"```python\n(.*?)```", page, re.S).group(1)
    prose = re.sub(r"```.*?```", "", page, flags=re.S)
    commands = [line[4:] for line in prose.splitlines() if line.startswith("    ")]
    assert len(commands) >= 10, commands
    home = tempfile.mkdtemp(prefix="provio-start-")
    try:
        demo = os.path.join(home, "provio-demo")
        os.makedirs(demo)
        for program in ("acquire", "decimate"):  # "./acquire": the page says where it is built
            shutil.copy(os.path.join(a.bin, "examples", "dassa", program), demo)
        with open(os.path.join(demo, "sweep.py"), "w") as f:
            f.write(python)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PROVIO_", "HDF5_", "PMIX_", "OMPI_COMM_WORLD")) and k != "LD_PRELOAD"}
        tools = [os.path.join(a.bin, "tools", t) for t in ("prov-run", "prov-merge", "prov-query", "prov-viz")]
        env.update(HOME=home, PATH=":".join(tools + [env.get("PATH", "/usr/bin:/bin")]),
                   PYTHONPATH=os.path.join(a.bin, "python"), OMPI_ALLOW_RUN_AS_ROOT="1",
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1",
                   PRTE_MCA_rmaps_default_mapping_policy=":oversubscribe")
        script = "set -e\n" + "\n".join(f"echo '>>> {i}'\n{c}" for i, c in enumerate(commands))
        p = subprocess.run(["sh", "-c", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=240)
        assert p.returncode == 0, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
        out = p.stdout
        assert "WestSac.h5" in out.split(">>> 6\n")[1].split(">>> 7\n")[0], out   # lineage of decimate.h5
        assert re.search(r"\n[01] +\d+ +\d+", out), out                             # stats per rank 0/1
        assert "run-1" in out and "hidden=32 lr=0.01" in out, out                   # best
        for f in ("lineage.svg", "report.html", "out.txt"):
            assert os.path.getsize(os.path.join(demo, f)) > 0, f
        print(f"ok: {len(commands)} commands of docs/getting-started.md")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
