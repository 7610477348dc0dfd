"""Descriptors a program did not open under the name it uses, checked in the raw files (issue 31,
item 3): a copy made by dup2 or F_DUPFD names its original's file and reads its version; closing
one copy of a written file while another still writes names no version (the epoch ends with the
last writer, or the dup2 that replaces it); a program exec'd on an inherited descriptor writes
the file; and a shell's redirection (`cp a.txt b.txt; sh -c 'tr a-z A-Z < b.txt > c.txt';
cp x.txt b.txt`) binds every use of b.txt to the version it held then, the shell's too, with no
time rule of the tools needed.
    test_inherit.py <preload> <inherit binary> <prov-query>"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import PROV, check, select  # noqa: E402

preload, binary, prov_query = sys.argv[1:4]
work = tempfile.mkdtemp(prefix="provio-posix-inherit-")


def traced(name, argv, cwd=work):
    prov = os.path.join(work, name + "-prov")
    provlib.run_traced(argv, prov, preload, cwd=cwd, timeout=30)
    g = provlib.load(prov)
    return g, provlib.activities(g), provlib.runs(g)


def size_of(version):
    """The size in a version's key: `<mtime>-<size>-<inode>` (docs/format.md, "Versions")."""
    return int(str(version).rsplit(";v=", 1)[1].split("-")[1])


def generated_versions(g, acts, path):
    """(activity, version) for every version of `path` an activity generated."""
    return [(a, v) for a in select(acts, path=path) for v in g.subjects(PROV.wasGeneratedBy, a.iri)
            if v == a.version]


# dup2 onto 7, the original closed, 10 bytes written through the copy, the copy left open at exit
out = os.path.join(work, "dup_write.txt")
g, acts, _ = traced("dup_write", [binary, "dup-write", out])
writes = select(acts, path=out, cls="Write")
check(provlib.total(writes, "bytes") == 10, "dup2: the write through the copy names the file: %s" % writes)
made = generated_versions(g, acts, out)
check(made, "dup2: the copy still open at exit leaves a version: %s" % select(acts, path=out))
check(all(size_of(v) == 10 for _, v in made),
      "dup2: closing the original while its copy writes names no version of the empty file: %s" % made)

# F_DUPFD: 4 bytes read through the original, the rest through the copy, one version
data = os.path.join(work, "dup_read.txt")
with open(data, "w") as f:
    f.write("abcdefgh\n")
g, acts, _ = traced("dup_read", [binary, "dup-read", data])
reads = select(acts, path=data, cls="Read")
check(provlib.total(reads, "bytes") == 9, "F_DUPFD: both reads name the file: %s" % reads)
check(all(a.version is not None for a in reads) and len({a.version for a in reads}) == 1,
      "F_DUPFD: the copy reads the version its original read: %s" % [(a, a.version) for a in reads])

# exec on an inherited descriptor: the exec'd image writes the file and names the version at exit
out = os.path.join(work, "exec_write.txt")
g, acts, runs = traced("exec_write", [binary, "exec-write", out])
with open(out) as f:
    check(f.read() == "exec'd\n", "exec: the program's output")
execd = [r for r, v in runs.items() if v["commandLine"].endswith("write-stdout")]
check(len(execd) == 1, "exec: one exec'd image: %s" % runs)
writes = select(acts, path=out, cls="Write")
check([a.run for a in writes] == execd and provlib.total(writes, "bytes") == 7,
      "exec: the write on the inherited descriptor names the file: %s" % writes)
made = generated_versions(g, acts, out)
check(made and all(a.run == execd[0] and size_of(v) == 7 for a, v in made),
      "exec: the version is the exec'd program's, with its bytes: %s" % [(a, a.run, v) for a, v in made])

# a shell builtin's redirection: `> e.txt` opened on a descriptor, dup2'ed onto 1, that one closed,
# echo writes, and the shell's dup2 restoring its stdout closes e.txt: the version holds echo's bytes
out = os.path.join(work, "echo.txt")
g, acts, _ = traced("echo", ["sh", "-c", "echo builtin > echo.txt"])
made = generated_versions(g, acts, out)
check(made and all(size_of(v) == 8 for _, v in made),
      "builtin: the shell's version of echo.txt holds what echo wrote: %s" % [(a, v) for a, v in made])

# the shell's redirection
shell = os.path.join(work, "shell")
os.mkdir(shell)
for name, text in (("a.txt", "first content\n"), ("x.txt", "later content\n")):
    with open(os.path.join(shell, name), "w") as f:
        f.write(text)
prov = os.path.join(work, "shell-prov")
for command in (["cp", "a.txt", "b.txt"], ["sh", "-c", "tr a-z A-Z < b.txt > c.txt"], ["cp", "x.txt", "b.txt"]):
    provlib.run_traced(command, prov, preload, cwd=shell, timeout=30)
with open(os.path.join(shell, "c.txt")) as f:
    check(f.read() == "FIRST CONTENT\n", "the scenario itself")
g = provlib.load(prov)
acts, runs = provlib.activities(g), provlib.runs(g)
b, c = os.path.join(shell, "b.txt"), os.path.join(shell, "c.txt")
by_command = {}
for a in select(acts, path=b):
    by_command.setdefault(runs[a.run]["commandLine"], []).append(a)
first = [a.version for a in by_command.get("cp a.txt b.txt", []) if a.cls == "Close" and a.version]
later = [a.version for a in by_command.get("cp x.txt b.txt", []) if a.cls == "Close" and a.version]
check(len(first) == 1 and len(later) == 1 and first != later, "b.txt's two versions: %s" % by_command)
tr_reads = [a for a in by_command.get("tr a-z A-Z", []) if a.cls == "Read"]
check(tr_reads and all(a.version == first[0] for a in tr_reads), "tr read b.txt's first version: %s" % tr_reads)
sh = os.path.realpath(shutil.which("sh"))
handed = [a for a in select(acts, path=b) if runs[a.run]["executable"] == sh and a.version is not None]
check(handed and all(a.version == first[0] for a in handed),
      "the shell image that exec'd tr on b.txt bound it to b.txt's first version: %s" %
      [(a, runs[a.run]["commandLine"]) for a in select(acts, path=b) if runs[a.run]["executable"] == sh])
check(not any(a.version == later[0] for a in select(acts, path=b) if a.cls != "Close"),
      "nobody used the version cp x.txt left")
made = generated_versions(g, acts, c)
check(made and len({v for _, v in made}) == 1 and size_of(made[0][1]) == 14 and
      any(runs[a.run]["commandLine"] == "tr a-z A-Z" for a, _ in made),
      "c.txt has one version, tr's output: the shell's close of its `> c.txt` named no empty version: %s" %
      [(a, runs[a.run]["commandLine"], v) for a, v in made])

answer = json.loads(subprocess.run([prov_query, "lineage", c, "--up", "--depth", "all", "-f", "json", prov],
                                   check=True, capture_output=True, text=True, timeout=60).stdout)
rows = [{k: cell["value"] for k, cell in b.items()} for b in answer["results"]["bindings"]]
names = {r["name"] for r in rows if r["kind"] == "entity"}
commands = {r["command"] for r in rows if r["kind"] == "program"}
check(not any("x.txt" in n for n in names | commands), "lineage: x.txt is no ancestor: %s %s" % (names, commands))
check(any(n.startswith(b + " @") for n in names) and "tr a-z A-Z" in commands and "cp a.txt b.txt" in commands,
      "lineage of c.txt: b.txt's first version, tr and cp a.txt: %s %s" % (names, commands))
shutil.rmtree(work)
print("ok")
