#!/usr/bin/python3
"""prov-run tests: real programs (sh, cat, an MPI/HDF5 program) run through prov-run under the real
preload library and VOL connector; srun and flux through stand-in launchers that implement the
documented forwarding options (standin/), each with a control run that shows forwarding matters.

  prov_run_test.py CASE --bin BUILD_DIR --h5prog ACQUIRE

After each run, prov-query is called with no input in the run's directory: it must find the job.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1",
           "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe"}
ARGS = None


def tool(name):
    return os.path.join(ARGS.bin, "tools", name, name)


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PROVIO_", "HDF5_", "SLURM_", "FLUX_", "PMIX_", "OMPI_COMM_WORLD"))
           and k != "LD_PRELOAD"}
    env.update(MPI_ENV)
    env.update(extra or {})
    return env


def run(cmd, cwd, env=None, expect=0, stdin=None):
    p = subprocess.run(cmd, cwd=cwd, env=clean_env(env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120, stdin=stdin)
    if expect is not None and p.returncode != expect:
        raise AssertionError(f"{cmd}: exit {p.returncode}, expected {expect}\nstdout:\n{p.stdout}\n"
                             f"stderr:\n{p.stderr}")
    return p


def query(cwd, *args):
    """prov-query with no input, as a user would right after prov-run."""
    return run([tool("prov-query"), *args, "-f", "csv"], cwd).stdout


def lineage_has(cwd, entity, expected):
    out = query(cwd, "lineage", entity, "--up")
    assert expected in out, f"lineage of {entity} lacks {expected}:\n{out}"


CREATED = []


def workdir():
    d = tempfile.mkdtemp(prefix="provio-run-", dir=ARGS.work)
    CREATED.append(d)
    with open(os.path.join(d, "in.txt"), "w") as f:
        f.write("input\n")
    return d


COPY = "cat in.txt > out.txt"


def case_plain():
    d = workdir()
    p = run([tool("prov-run"), "--", "sh", "-c", COPY], d)
    assert os.path.isdir(os.path.join(d, "provio.db")), os.listdir(d)
    assert "merged into provio.db" in p.stderr, p.stderr
    jobs = os.listdir(os.path.join(d, "provio"))
    assert len(jobs) == 1 and jobs[0].startswith("run-"), jobs
    lineage_has(d, "out.txt", "in.txt")
    # A second job in the same directory joins the same store: lineage across the two jobs.
    run([tool("prov-run"), "-q", "--", "cp", "out.txt", "copy.txt"], d)
    lineage_has(d, "copy.txt", "in.txt")
    # -o also writes the merged graph; --dir chooses the job directory.
    run([tool("prov-run"), "-q", "-d", "mine", "-o", "job.ttl", "--", "sh", "-c", "cat copy.txt > x.txt"], d)
    assert os.listdir(os.path.join(d, "mine")), "no raw files in --dir"
    assert "x.txt" in open(os.path.join(d, "job.ttl")).read()


def case_exit_codes():
    d = workdir()
    p = run([tool("prov-run"), "--", "sh", "-c", COPY + "; exit 3"], d, expect=3)
    lineage_has(d, "out.txt", "in.txt")  # merged although the job failed
    p = run([tool("prov-run"), "--", "no-such-program-xyz"], d, expect=127)
    assert "prov-run: no-such-program-xyz: No such file or directory" in p.stderr, p.stderr
    os.chmod(os.path.join(d, "in.txt"), 0o644)
    run([tool("prov-run"), "--", "./in.txt"], d, expect=126)
    run([tool("prov-run"), "--", "sh", "-c", "kill -TERM $$"], d, expect=128 + signal.SIGTERM)
    for bad in ([], ["--bogus", "true"], ["--level", "loud", "true"], ["--no-merge", "--query", "x", "true"]):
        p = run([tool("prov-run"), *bad], d, expect=125)
        assert p.stderr.startswith("prov-run: ") and "usage:" in p.stderr, p.stderr


def case_signal():
    """SIGTERM to prov-run (scancel, kill) reaches the job, and what it flushed is merged."""
    d = workdir()
    p = subprocess.Popen([tool("prov-run"), "--", "sh", "-c", COPY + "; exec sleep 60"], cwd=d,
                         env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 20
    while not os.path.exists(os.path.join(d, "out.txt")) and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 128 + signal.SIGTERM, (p.returncode, err)
    lineage_has(d, "out.txt", "in.txt")


def case_stacking():
    """A connector and a preload list the user set are kept, under / after provio's."""
    d = workdir()
    user = {"HDF5_VOL_CONNECTOR": "pass_through under_vol=0;under_info={}",
            "LD_PRELOAD": "libm.so.6", "HDF5_PLUGIN_PATH": "/opt/other/plugins"}
    p = run([tool("prov-run"), "-n", "--", "true"], d, env=user)
    assert "HDF5_VOL_CONNECTOR='provio under_vol=pass_through;under_info={under_vol=0;under_info={}}'" \
        in p.stdout, p.stdout
    assert "/plugins:/opt/other/plugins'" in p.stdout, p.stdout
    p = run([tool("prov-run"), "-q", "--", "sh", "-c", 'echo "$LD_PRELOAD"'], d, env=user)
    preload = p.stdout.strip().split(":")
    assert preload[0].endswith("libprovio_posix.so") and preload[1:] == ["libm.so.6"], preload
    # A real HDF5 program through provio stacked on HDF5's pass-through connector.
    run([tool("prov-run"), "-q", "--", ARGS.h5prog, "W.h5"], d, env=user)
    out = query(d, "objects", "W.h5")
    assert "H5Dwrite" in query(d, "stats", "--by", "api") and "/" in out, out


def case_mpirun():
    d = workdir()
    p = run([tool("prov-run"), "-n", "-w", "sweep", "--", "mpirun", "-np", "2", ARGS.h5prog, "W.h5"], d)
    cmd = p.stdout.strip().splitlines()[-1]
    assert cmd.startswith("mpirun -x HDF5_PLUGIN_PATH -x HDF5_VOL_CONNECTOR -x PROVIO_DIR -x PROVIO_WORKFLOW "
                          "-x LD_PRELOAD="), cmd
    assert "LD_PRELOAD" not in p.stdout.split("\nmpirun")[0], "the launcher itself must not be preloaded"
    run([tool("prov-run"), "-q", "-w", "sweep", "--", "mpirun", "-np", "2", ARGS.h5prog, "W.h5"], d)
    programs = query(d, "programs").splitlines()[1:]
    ranks = sorted(line.split(",")[4] for line in programs)
    assert ranks == ["0", "1"], programs  # two ranks; mpirun itself is not traced
    out = query(d, "sparql", "-e", "SELECT DISTINCT ?w WHERE { ?p provio:workflow ?w }")
    assert "sweep" in out, out
    lineage_has(d, "W.h5", "acquire")


def standin_case(launcher_cmd, env):
    d = workdir()
    path = os.path.join(HERE, "standin") + ":" + os.environ.get("PATH", "")
    env = dict(env, PATH=path)
    sh = shutil.which("sh")
    job = launcher_cmd + [sh, "-c", "/bin/cat in.txt > out-$$.txt"]
    # Control: without prov-run's forwarding options the tasks record nothing (the launcher
    # itself, preloaded here, may record its own files).
    control = workdir()
    run([tool("prov-run"), "-q", "--launcher", "plain", "--", *job], control, env=env)
    outs = sorted(f for f in os.listdir(control) if f.startswith("out-"))
    assert len(outs) == 2, os.listdir(control)
    p = run([tool("prov-query"), "lineage", outs[0]], control, expect=2)
    assert "unknown entity" in p.stderr, p.stderr
    run([tool("prov-run"), "-q", "--", *job], d, env=env)
    outs = sorted(f for f in os.listdir(d) if f.startswith("out-"))
    assert len(outs) == 2, os.listdir(d)
    for o in outs:
        lineage_has(d, o, "in.txt")
    return d


def case_srun():
    d = standin_case(["srun", "-n", "2"], {"SLURM_JOB_ID": "4242", "SLURM_EXPORT_ENV": "NONE"})
    assert os.listdir(os.path.join(d, "provio")) == ["slurm-4242"], os.listdir(os.path.join(d, "provio"))


def case_flux():
    standin_case(["flux", "run", "-n", "2"], {"FLUX_STANDIN_START": "none"})


def case_hydra():
    """hydra's mpiexec is told from Open MPI's by --version; LD_PRELOAD reaches the tasks through
    -genv and not the launcher (the stand-in fails if it was preloaded)."""
    d = workdir()
    env = {"PATH": os.path.join(HERE, "standin") + ":" + os.environ.get("PATH", "")}
    p = run([tool("prov-run"), "-n", "--", "mpiexec", "-n", "2", "true"], d, env=env)
    assert "\nmpiexec -genv LD_PRELOAD " in p.stdout and "export LD_PRELOAD" not in p.stdout, p.stdout
    run([tool("prov-run"), "-q", "--", "mpiexec", "-n", "2", shutil.which("sh"), "-c", "cat in.txt > out-$$.txt"],
        d, env=env)
    outs = sorted(f for f in os.listdir(d) if f.startswith("out-"))
    assert len(outs) == 2, os.listdir(d)
    for o in outs:
        lineage_has(d, o, "in.txt")


def case_print_env():
    d = workdir()
    pr = tool("prov-run")
    run(["sh", "-c", f'eval "$({pr} --print-env=sh -d sh-prov)" && cat in.txt > sh.txt'], d)
    run(["tcsh", "-f", "-c", f"eval `{pr} --print-env=csh -d csh-prov` && cat in.txt > csh.txt"], d)
    for sub in ("sh-prov", "csh-prov"):
        assert any(f.endswith((".ttl", ".ttl.zst")) for f in os.listdir(os.path.join(d, sub))), sub
    run([tool("prov-merge"), "-q", "sh-prov", "csh-prov", "--store", "provio.db", "-o", "/dev/null", "-f", "ntriples"], d)
    lineage_has(d, "sh.txt", "in.txt")
    lineage_has(d, "csh.txt", "in.txt")
    # SHELL decides the default syntax.
    assert run([pr, "--print-env"], d, env={"SHELL": "/bin/tcsh"}).stdout.startswith("setenv ")
    assert run([pr, "--print-env"], d, env={"SHELL": "/bin/bash"}).stdout.startswith("export ")


def case_query_report():
    d = workdir()
    p = run([tool("prov-run"), "-q", "--query", "lineage out.txt --up", "--query", "files",
             "--report", "r.html", "--", "sh", "-c", COPY], d)
    assert "in.txt" in p.stdout and "out.txt" in p.stdout, p.stdout
    assert "<html" in open(os.path.join(d, "r.html")).read()
    p = run([tool("prov-run"), "-q", "--query", "lineage nothing.txt", "--", "sh", "-c", COPY], d, expect=125)
    assert "prov-query: unknown entity: nothing.txt" in p.stderr, p.stderr


def main():
    global ARGS
    ARGS, case = cases.parse(globals(), ["--bin", "--h5prog", "--work"])
    os.makedirs(ARGS.work, exist_ok=True)
    case()
    for d in CREATED:  # kept when the case failed, for a look
        shutil.rmtree(d, ignore_errors=True)
    print(f"ok: prov_run.{ARGS.case}")


if __name__ == "__main__":
    main()
