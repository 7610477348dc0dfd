"""Every interposed call: result and errno identical with and without libprovio_posix.so (as root
and as an unprivileged user, for EACCES), for a plain and a _FORTIFY_SOURCE build of the same
program; then the exact provenance of what the program did.
    test_calls.py <preload> <calls> <calls_fortified>"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provlib  # noqa: E402
from provlib import check  # noqa: E402

preload, plain, fortified = sys.argv[1:4]

# The fortified build must really call the fortified entry points, or this test proves nothing.
symbols = subprocess.run(["nm", "-D", fortified], capture_output=True, text=True, check=True).stdout
for sym in ("__open_2", "__openat_2", "__read_chk", "__fgets_chk", "__fread_chk", "__fprintf_chk"):
    check(sym + "@" in symbols, "fortified build does not call " + sym)

root = tempfile.mkdtemp(prefix="provio-posix-calls-")
os.chmod(root, 0o755)

# The unprivileged user may not be able to reach the build tree (a checkout under /root is 0700):
# run copies of the programs and libraries from the world-readable scratch directory instead.
bin_dir = os.path.join(root, "bin")
os.mkdir(bin_dir)
os.chmod(bin_dir, 0o755)
for lib in subprocess.run(["ldd", preload], capture_output=True, text=True, check=True).stdout.splitlines():
    if "libprovio" in lib and "=>" in lib:
        shutil.copy(lib.split("=>")[1].split()[0], bin_dir)
preload, plain, fortified = (shutil.copy(f, bin_dir) for f in (preload, plain, fortified))
for f in os.listdir(bin_dir):
    os.chmod(os.path.join(bin_dir, f), 0o755)


def run(binary, name, traced, as_nobody):
    d = os.path.join(root, name)
    os.mkdir(d)
    os.chmod(d, 0o777)
    with open(os.path.join(d, "secret"), "w") as f:
        f.write("s")
    os.chmod(os.path.join(d, "secret"), 0o600)
    prov = os.path.join(root, name + ".prov")
    os.mkdir(prov)
    if as_nobody:  # provio writes only into a directory of the user it runs as (docs/security.md)
        os.chown(prov, 65534, 65534)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PROVIO_DIR": prov, "LD_LIBRARY_PATH": bin_dir}
    if traced:
        env["LD_PRELOAD"] = preload
    argv = [binary, d]
    if as_nobody:
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
    out = os.path.join(root, name + ".out")
    with open(out, "w") as f:
        subprocess.run(argv, env=env, stderr=f, check=True)
    with open(out) as f:
        return f.read(), d, prov


for binary in (plain, fortified):
    tag = os.path.basename(binary)
    for as_nobody in (False, True):
        who = "nobody" if as_nobody else "root"
        native, _, _ = run(binary, "%s-%s-native" % (tag, who), False, as_nobody)
        traced, d, prov = run(binary, "%s-%s-traced" % (tag, who), True, as_nobody)
        if native != traced:
            import difflib
            sys.stderr.writelines(difflib.unified_diff(native.splitlines(True), traced.splitlines(True),
                                                       "native", "traced"))
            provlib.fail("%s as %s: results differ under the library" % (tag, who))
        expect_secret = "errno=13" if as_nobody else "errno=-1"
        secret = [l for l in traced.splitlines() if l.startswith("open secret")][0]
        check(expect_secret in secret, "%s as %s: %s" % (tag, who, secret))

        # The provenance of the traced run: exact counts and bytes per (file, class, api).
        acts = provlib.activities(provlib.load(prov))
        got, versioned = {}, {}
        for a in provlib.select(acts, under=d):
            key = (os.path.relpath(os.fsdecode(a.path()), d), a.cls, a.api)
            # One activity per key, except opens and closes of different versions of a file
            # (docs/format.md, "Versions"): their counts add up.
            before = got.get(key)
            versioned.setdefault(key, []).append(a.version)
            check(before is None or any(versioned[key]), "two activities for %s" % (key,))
            got[key] = (a.count + (before[0] if before else 0), a.bytes + (before[1] if before else 0))
            if a.cls in ("Rename", "Copy"):
                got[key + ("->",)] = os.path.relpath(os.fsdecode(provlib.path_of(a.other)), d)
        want = {
            (".", "Open", "open"): (1, 0),
            (".", "Close", "close"): (1, 0),
            ("data.bin", "Create", "open"): (1, 0),
            ("data.bin", "Write", "write"): (13, 13),
            ("data.bin", "Write", "pwrite"): (1, 4),
            ("data.bin", "Write", "writev"): (1, 7),
            ("data.bin", "Flush", "fsync"): (1, 0),
            ("data.bin", "Flush", "fdatasync"): (1, 0),
            ("data.bin", "Modify", "ftruncate"): (1, 0),
            ("data.bin", "Access", "fstat"): (1, 0),
            ("data.bin", "Access", "lseek"): (3, 0),
            ("data.bin", "Access", "mmap"): (1, 0),
            ("data.bin", "Access", "stat"): (1, 0),
            ("data.bin", "Access", "lstat"): (1, 0),
            ("data.bin", "Access", "fstatat"): (1, 0),
            ("data.bin", "Access", "statx"): (1, 0),
            ("data.bin", "Close", "close"): (6, 0),
            ("data.bin", "Open", "open"): (1, 0),
            ("data.bin", "Open", "openat"): (1, 0),
            ("data.bin", "Read", "read"): (2, 8),
            ("data.bin", "Read", "pread"): (2, 6),
            ("data.bin", "Read", "readv"): (1, 5),
            ("data.bin", "Rename", "rename"): (1, 0),
            ("data.bin", "Rename", "rename", "->"): "data2.bin",
            ("data2.bin", "Copy", "link"): (1, 0),
            ("data2.bin", "Copy", "link", "->"): "hard.bin",
            ("data2.bin", "Modify", "truncate"): (1, 0),
            ("hard.bin", "Delete", "unlinkat"): (1, 0),
            ("soft.bin", "Create", "symlink"): (1, 0),
            ("soft.bin", "Delete", "unlink"): (1, 0),
            ("sub", "Create", "mkdir"): (1, 0),
            ("sub", "Delete", "rmdir"): (1, 0),
            ("sub2", "Create", "mkdirat"): (1, 0),
            ("sub2", "Delete", "unlinkat"): (1, 0),
            ("c.bin", "Create", "creat"): (1, 0),
            ("c.bin", "Close", "close"): (1, 0),
            ("c.bin", "Create", "freopen"): (1, 0),
            ("c.bin", "Write", "fputs"): (1, 4),
            ("c.bin", "Close", "fclose"): (1, 0),
            ("s.txt", "Create", "fopen"): (1, 0),
            ("s.txt", "Open", "fopen"): (1, 0),
            ("s.txt", "Open", "open"): (1, 0),
            ("s.txt", "Open", "fdopen"): (1, 0),
            ("s.txt", "Write", "fprintf"): (3, 21),
            ("s.txt", "Write", "fputs"): (1, 5),
            ("s.txt", "Write", "fwrite"): (1, 10),
            ("s.txt", "Flush", "fflush"): (1, 0),
            ("s.txt", "Access", "fseek"): (2, 0),
            ("s.txt", "Read", "fgets"): (6, 36),
            ("s.txt", "Read", "fread"): (2, 12),
            ("s.txt", "Read", "getline"): (1, 6),
            ("s.txt", "Close", "fclose"): (2, 0),
        }
        want[("secret", "Access", "stat")] = (1, 0)  # stat needs no read permission
        if not as_nobody:  # as nobody, the open fails with EACCES: failed calls record nothing
            want[("secret", "Open", "open")] = (1, 0)
        for k in sorted(set(want) | set(got), key=str):
            check(got.get(k) == want.get(k), "%s as %s: %s: got %s, want %s" % (tag, who, k, got.get(k), want.get(k)))
        # Directories are provio:Directory
        g = provlib.load(prov)
        for sub in ("sub", "sub2", ""):
            iri = provlib.URIRef("file://" + os.path.join(d, sub).rstrip("/"))
            check((iri, provlib.RDF.type, provlib.PIO.Directory) in g, "%s is not a provio:Directory" % iri)
        # Nothing was recorded on excluded paths (/proc, /dev, /usr, …)
        for a in acts:
            p = a.path()
            check(not p.startswith((b"/proc/", b"/dev/", b"/usr/", b"/etc/")), "excluded path recorded: %r" % p)

shutil.rmtree(root)
print("ok")
