#!/usr/bin/python3
"""The hostile second user (docs/security.md): as nobody, plant symlinks, directories and FIFOs
where provio, prov-merge and PROVIO_LOG will write, then run as root; nothing outside provio's own
files may be touched, modes are as documented, secrets are redacted.

  second_user_test.py CASE --preload LIBPROVIO_POSIX --merge PROV_MERGE --query PROV_QUERY --viz PROV_VIZ
                      --record RECORD_EVENTS --pythonpath BUILD/python --vol-plugin LIBPROVIO_VOL
                      --vol-sample VOL_SAMPLE
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

import rdflib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cases  # noqa: E402
import zstd_raw  # noqa: E402
from common import (as_nobody, check, copy_for_nobody, nobody_python, rdf_loads, record, run,  # noqa: E402
                    scratch_dir, shared_dir)

ARGS = None
SECRETS = ["hunter2", "hunter3", "hunter4", "hunter5", "hunter6"]


def victim(d):
    """A 0600 file of root's that nothing may change."""
    v = os.path.join(d, "victim")
    with open(v, "w") as f:
        f.write("precious\n")
    os.chmod(v, 0o600)
    return v


def assert_untouched(v):
    with open(v) as f:
        check(f.read() == "precious\n", f"{v} was written through a planted link")


def traced_python(code, cwd, env, *args, timeout=60):
    """A real program (a Python script, so that its command line is only `args`) under the POSIX
    preload library, as root."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
    try:
        e = {"LD_PRELOAD": ARGS.preload, "PYTHONPATH": ARGS.pythonpath, **env}
        return run(["/usr/bin/python3", f.name, *args], env=e, cwd=cwd, expect=0, timeout=timeout)
    finally:
        os.unlink(f.name)


WRITE_FILE = "open('data.txt', 'w').write('x')\n"


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def case_merge_output():
    """Defect 1: prov-merge -o writes through a temporary nobody cannot predict or redirect."""
    with scratch_dir("merge-output") as d:
        [raw] = record(ARGS.record, os.path.join(d, "raw"), PROVIO_LEVEL="summary")[:1]
        v = victim(d)
        shared = shared_dir(d)
        out = os.path.join(shared, "merged.ttl")
        with open("/proc/sys/kernel/ns_last_pid") as f:
            last = int(f.read())
        # nobody plants links for the next pids at the old temporary name, and at the output itself
        nobody_python("import os, sys\nv, out, last = sys.argv[1], sys.argv[2], int(sys.argv[3])\n"
                      "for pid in range(last, last + 300): os.symlink(v, f'{out}.tmp-{pid}')\n"
                      "os.symlink(v, out)\n", v, out, last)
        run([ARGS.merge, raw, "-o", out], expect=0)
        assert_untouched(v)
        st = os.lstat(out)
        check(stat.S_ISREG(st.st_mode) and st.st_uid == 0, f"{out} is not root's regular file: {st}")
        check("@prefix" in open(out).read(), "merged output is not Turtle")
        leftovers = [n for n in os.listdir(shared) if not n.startswith("merged.ttl.tmp-") and n != "merged.ttl"]
        check(not leftovers, f"temporary files left behind: {leftovers}")


def case_tool_outputs():
    """Defect 1 in the other tools: prov-query -o, prov-viz report -o and prov-viz lineage -o (which
    Graphviz used to open by name) replace a planted symlink instead of writing through it."""
    with scratch_dir("tool-outputs") as d:
        raw = os.path.dirname(record(ARGS.record, os.path.join(d, "raw"))[0])
        v = victim(d)
        shared = shared_dir(d)
        outs = {name: os.path.join(shared, name) for name in ("stats.csv", "report.html", "lineage.svg")}
        nobody_python("import os, sys\nfor out in sys.argv[2:]: os.symlink(sys.argv[1], out)\n", v, *outs.values())
        run([ARGS.query, "stats", "-o", outs["stats.csv"], raw], expect=0)
        run([ARGS.viz, "report", "-o", outs["report.html"], raw], expect=0)
        run([ARGS.viz, "lineage", os.path.join(d, "data.h5"), "-o", outs["lineage.svg"], raw], expect=0)
        assert_untouched(v)
        for out in outs.values():
            st = os.lstat(out)
            check(stat.S_ISREG(st.st_mode) and st.st_uid == 0 and st.st_size > 0, f"{out} is not root's new file")


def case_output_dir():
    """Defect 2: another user's directory (or link) on the way is refused, once, recording nothing;
    without a working directory there is no shared fallback; PROVIO_LOG is never followed."""
    with scratch_dir("output-dir") as d:
        shared = shared_dir(d)
        # nobody pre-creates the directory root's run would use by default, mode 777
        nobody_python("import os, sys\nos.makedirs(sys.argv[1])\nos.chmod(sys.argv[1], 0o777)\n",
                      os.path.join(shared, "provio", "local"))
        p = traced_python(WRITE_FILE * 3, shared, {})
        planted = os.path.join(shared, "provio", "local")
        check(os.listdir(planted) == [], f"provenance written into nobody's directory: {os.listdir(planted)}")
        refusals = [l for l in p.err.splitlines() if "will not write provenance" in l]
        check(len(refusals) == 1 and "owned by uid 65534" in refusals[0], f"expected one refusal:\n{p.err}")
        # a symlinked PROVIO_DIR of nobody's, to a directory of root's: not followed
        root_dir = os.path.join(d, "root-only")
        os.mkdir(root_dir, 0o700)
        link = os.path.join(shared, "prov")
        nobody_python("import os, sys\nos.symlink(sys.argv[1], sys.argv[2])\n", root_dir, link)
        p = traced_python(WRITE_FILE, shared, {"PROVIO_DIR": link})
        check(os.listdir(root_dir) == [] and "symbolic link owned by uid 65534" in p.err, p.err)
        # a world-writable directory without the sticky bit, even root's own, is refused
        open_dir = os.path.join(d, "open")
        os.mkdir(open_dir)
        os.chmod(open_dir, 0o777)
        p = traced_python(WRITE_FILE, shared, {"PROVIO_DIR": open_dir})
        check(os.listdir(open_dir) == [] and "writable by every user" in p.err, p.err)
        # PROVIO_LOG: nobody's symlink to a victim, and a FIFO nobody reads (open would block)
        v = victim(d)
        log_link, log_fifo = os.path.join(shared, "provio.log"), os.path.join(shared, "fifo.log")
        nobody_python("import os, sys\nos.symlink(sys.argv[1], sys.argv[2])\nos.mkfifo(sys.argv[3])\n",
                      v, log_link, log_fifo)
        for log in (log_link, log_fifo):
            p = traced_python(WRITE_FILE, shared, {"PROVIO_LOG": log, "PROVIO_LEVEL": "bogus"}, timeout=20)
            assert_untouched(v)
            check("PROVIO_LEVEL='bogus'" in p.err, f"the warning must go to stderr instead:\n{p.err}")
        # no working directory: no default at all (never /tmp/provio/local)
        start = time.time()
        gone = os.path.join(d, "gone")
        os.mkdir(gone)
        p = traced_python("import os\nos.rmdir(os.getcwd())\nopen('/dev/null', 'w').write('x')\n", gone, {})
        fallback = "/tmp/provio/local"
        fresh = [n for n in os.listdir(fallback) if os.lstat(os.path.join(fallback, n)).st_mtime >= start] \
            if os.path.isdir(fallback) else []
        check(not fresh, f"provenance went to the shared {fallback}: {fresh}")
        check("no output directory (the directory the process started in is unknown or removed" in p.err,
              f"no warning without a working directory:\n{p.err}")


ORDINARY_USER = 4242  # a victim who is not root (no account needed: setpriv sets the ids)


def case_planted_tree():
    """Issue 29 (1): in a sticky shared directory nobody creates its own provio/ (0755) holding
    local -> a directory of its choice, one of the victim's own. root's and an ordinary user's runs
    there, with the default PROVIO_DIR, write nothing into it, through the preload library and
    through the VOL connector, and say why once."""
    with scratch_dir("planted-tree") as d:
        shared = shared_dir(d)
        planted = os.path.join(shared, "provio")
        nobody_python("import os, sys\nos.mkdir(sys.argv[1], 0o755)\n", planted)
        sample, env = copy_for_nobody(ARGS.vol_sample, d)
        posix_lib = shutil.copy(ARGS.preload, os.path.dirname(sample))
        plugins = os.path.join(d, "plugins")
        os.mkdir(plugins)
        os.chmod(shutil.copy(ARGS.vol_plugin, plugins), 0o755)
        vol_env = {**env, "HDF5_PLUGIN_PATH": plugins, "HDF5_VOL_CONNECTOR": "provio under_vol=0;under_info={}"}
        programs = {
            "preload": (["/usr/bin/python3", "-c", WRITE_FILE], {**env, "LD_PRELOAD": posix_lib}),
            "vol": ([sample, "rich", "data.h5"], vol_env),
        }
        for uid in (0, ORDINARY_USER):
            # the victim's own directory (another project of theirs), which the link steers to
            loot = os.path.join(d, f"loot-{uid}")
            os.mkdir(loot, 0o700)
            os.chown(loot, uid, uid)
            nobody_python("import os, sys\nlink = os.path.join(sys.argv[1], 'local')\n"
                          "os.path.lexists(link) and os.unlink(link)\nos.symlink(sys.argv[2], link)\n",
                          planted, loot)
            for layer, (argv, layer_env) in programs.items():
                # the ids are switched in the child itself: a setpriv would be traced too
                p = run(argv, env=layer_env, cwd=shared, expect=0, user=uid, group=uid, extra_groups=[])
                check(os.listdir(loot) == [],
                      f"uid {uid}, {layer}: provenance steered into {loot}: {os.listdir(loot)}")
                refusals = [line for line in p.err.splitlines() if "will not write provenance" in line]
                check(len(refusals) == 1 and "owned by uid 65534 below" in refusals[0],
                      f"uid {uid}, {layer}: expected one refusal naming nobody's directory:\n{p.err}")
                for name in ("data.txt", "data.h5"):
                    if os.path.exists(os.path.join(shared, name)):
                        os.unlink(os.path.join(shared, name))
        # The rule is about other users, not about shared directories: once nobody's tree is gone,
        # root's own tree there is used.
        os.rename(planted, os.path.join(d, "nobodys"))
        run(["/usr/bin/python3", "-c", WRITE_FILE], env=programs["preload"][1], cwd=shared, expect=0)
        mine = os.path.join(planted, "local")
        check(os.path.isdir(mine) and os.listdir(mine), f"nothing recorded into root's own {mine}")


PROGRAM_WITH_SECRETS = """
import sys, provio
provio.config({"db_password": "hunter5", "source": "https://bob:hunter6@data.example.org/x", "lr": 0.1})
open('data.txt', 'w').write('x')
"""


def case_secrets():
    """Defect 3: files 0600 in 0700 directories (0640 / 0750 for group sharing), secrets redacted."""
    with scratch_dir("secrets") as d:
        work = os.path.join(d, "work")
        os.mkdir(work)
        for share, (dmode, fmode) in (("user", (0o700, 0o600)), ("group", (0o750, 0o640))):
            prov = os.path.join(d, "prov-" + share, "job")
            traced_python(PROGRAM_WITH_SECRETS, work, {"PROVIO_DIR": prov, "PROVIO_SHARE": share},
                          "--password=hunter2", "--token", "hunter3", "https://alice:hunter4@example.org/data")
            for dirpath in (os.path.dirname(prov), prov):
                check(mode(dirpath) == dmode, f"{dirpath}: mode {mode(dirpath):o}, expected {dmode:o}")
            files = [os.path.join(prov, n) for n in os.listdir(prov)]
            check(files, "nothing recorded")
            for f in files:
                check(mode(f) == fmode, f"{f}: mode {mode(f):o}, expected {fmode:o}")
                text = zstd_raw.read_text(f)
                leaked = [s for s in SECRETS if s in text]
                check(not leaked, f"{f} holds secrets {leaked}")
                for redacted in ("--password=***", "--token ***", "https://alice:***@example.org/data"):
                    check(redacted in text, f"{f}: command line not redacted as '{redacted}'")
                check('"***"' in text and "https://bob:" not in text, f"{f}: workflow values not redacted")
                # and the other user cannot read it at all
                p = subprocess.run(as_nobody(["cat", f]), capture_output=True)
                check(p.returncode != 0, f"nobody can read {f}")
        # PROVIO_REDACT adds words; off turns redaction off (documented)
        prov = os.path.join(d, "prov-extra")
        traced_python(WRITE_FILE, work, {"PROVIO_DIR": prov, "PROVIO_REDACT": "session"}, "--session-id=abc123")
        text = "".join(zstd_raw.read_text(f) for f in zstd_raw.raw_files(prov))
        check("--session-id=***" in text and "abc123" not in text, "PROVIO_REDACT words are not redacted")


# The forms curl, wget, openssl, git, mysql/psql and sshpass take secrets in (issue 29), as one
# traced program's command line and as a traced shell's command text; model/redact_test.cc has
# the table of every form.
TOOL_ARGS = ["-H", "Authorization: Bearer hunter10", "--oauth2-bearer", "hunter11", "-pass", "pass:hunter12",
             "--pass", "hunter13", "--password-file", "/run/pw-file", "-c", "http.extraheader=AUTHORIZATION: bearer hunter14",
             "PGPASSWORD=hunter15", "mysql", "-phunter16", "sshpass", "-p", "hunter17",
             "https://oauth2:hunter18@git.example/x.git", "https://h/api?access_token=hunter19&page=2"]
SHELL_TEXT = ("PGPASSWORD=hunter20 true; curl -H 'Authorization: Bearer hunter21' 2>/dev/null; "
              "sshpass -p hunter22 true 2>/dev/null; echo x > data.txt")


def case_tool_secrets():
    with scratch_dir("tool-secrets") as d:
        work = os.path.join(d, "work")
        os.mkdir(work)
        prov = os.path.join(d, "prov")
        traced_python(WRITE_FILE, work, {"PROVIO_DIR": prov}, *TOOL_ARGS)
        run(["/bin/sh", "-c", SHELL_TEXT], env={"LD_PRELOAD": ARGS.preload, "PROVIO_DIR": prov}, cwd=work, expect=0)
        text = "".join(zstd_raw.read_text(f) for f in zstd_raw.raw_files(prov))
        leaked = sorted(set(re.findall(r"hunter\d+", text)))
        check(not leaked, f"secrets recorded: {leaked}")
        for kept in ("Authorization: ***", "--oauth2-bearer ***", "-pass pass:***", "--password-file /run/pw-file",
                     "PGPASSWORD=***", "-p***", "oauth2:***@git.example", "access_token=***&page=2"):
            check(kept in text, f"command line not recorded as '{kept}'")


# Names ending in '.' (issue 29 item 12): a file "data." and an HDF5-style name inside a
# directory "run.": the raw files and prov-merge's Turtle and N-Triples load in rdflib and rapper,
# and the files are named by their own IRIs.
DOT_NAMES = """
import os
os.mkdir('run.')
for name in ('data.', 'run./out.', 'a..', 'x.y'):
    open(name, 'w').write('x')
    open(name).read()
"""


def case_dot_names():
    with scratch_dir("dot-names") as d:
        prov = os.path.join(d, "prov")
        traced_python(DOT_NAMES, d, {"PROVIO_DIR": prov})
        raw = [os.path.join(prov, n) for n in os.listdir(prov)]
        check(raw, "nothing recorded")
        for f in raw:
            rdf_loads(f, "turtle")
        for fmt, ext in (("turtle", "ttl"), ("nt", "nt")):
            out = os.path.join(d, "merged." + ext)
            run([ARGS.merge, "-q", prov, "-o", out] + (["--format", "ntriples"] if fmt == "nt" else []), expect=0)
            rdf_loads(out, fmt)
            g = rdflib.Graph().parse(out, format=fmt)
            paths = {str(o) for o in g.objects(None, rdflib.URIRef("http://www.w3.org/ns/provio#path"))}
            for name in ("data.", "run./out.", "a..", "x.y"):
                check(os.path.join(d, name) in paths, f"{name} not recorded in {out}")


def main():
    global ARGS
    ARGS, case = cases.parse(globals(), ["--preload", "--merge", "--query", "--viz", "--record", "--pythonpath",
                                         "--vol-plugin", "--vol-sample"])
    check(os.geteuid() == 0, "the second-user tests run as root (they switch to nobody themselves)")
    case()
    print(f"security.{ARGS.case}: ok")


if __name__ == "__main__":
    main()
