"""Every file of a program that meets many, or a mark that says what is missing (issue 29 item
8). many_files creates 20,000 files in one thread under the preload library:
  - with the default PROVIO_MEMORY every file is in the merged graph, with no incomplete mark
    and no message;
  - with a bound the table cannot grow past (PROVIO_MEMORY=1M), the run is marked
    provio:incomplete "memory-limit" with the number of calls whose file is not kept, and stderr
    holds exactly one provio warning.
    many_files.py <libprovio_posix.so> <many_files> <prov-merge>"""
import os
import re
import subprocess
import sys
import tempfile

N = 20000


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(preload, program, merge, work, **env):
    data, prov, merged = (os.path.join(work, d) for d in ("data", "prov", "merged.ttl"))
    os.mkdir(data)
    e = {k: v for k, v in os.environ.items() if not k.startswith(("PROVIO_", "LD_PRELOAD"))}
    e.update(LD_PRELOAD=preload, PROVIO_DIR=prov, **env)
    p = subprocess.run([program, data, str(N)], env=e, capture_output=True, text=True, timeout=300)
    if p.returncode != 0 or p.stdout != "%d files\n" % N:
        fail("many_files exited %d: %r %r" % (p.returncode, p.stdout, p.stderr))
    m = subprocess.run([merge, "-q", prov, "-o", merged], capture_output=True, text=True, timeout=300)
    if m.returncode != 0:
        fail("prov-merge failed: " + m.stderr)
    with open(merged) as f:
        text = f.read()
    kept = set(re.findall(re.escape("file://" + data) + r"/(f\d{5})\b", text))
    return kept, text, p.stderr


def incomplete(text, reason):
    """provio:lost of the incomplete nodes with this reason: prov-merge writes each as one block,
    `<…/incomplete/<flush>/<reason>> a provio:Incomplete ; provio:lost "n"^^xsd:unsignedLong ; …`
    (the whole graph would take rdflib a minute)."""
    blocks = re.findall(r'/%s> a provio:Incomplete ;(.*?) \.\n' % re.escape(reason), text, re.S)
    return [int(n) for b in blocks for n in re.findall(r'provio:lost "(\d+)"', b)]


def main():
    preload, program, merge = sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="provio-many-") as work:
        kept, text, err = run(preload, program, merge, work)
        if len(kept) != N:
            fail("%d of %d files in the merged graph" % (len(kept), N))
        if "memory-limit" in text or "provio:" in err:
            fail("a complete run is marked or warned about: %r" % err)
    with tempfile.TemporaryDirectory(prefix="provio-many-") as work:
        kept, text, err = run(preload, program, merge, work, PROVIO_MEMORY="1M")
        lost = incomplete(text, "memory-limit")
        # each file not kept had its open, write and close recorded on no entity, and counted
        if len(kept) == N or sum(lost) < 3 * (N - len(kept)):
            fail("at PROVIO_MEMORY=1M: %d files kept, memory-limit marks %s" % (len(kept), lost))
        warnings = [line for line in err.splitlines() if line.startswith("provio:")]
        if len(warnings) != 1 or "PROVIO_MEMORY" not in warnings[0]:
            fail("expected one warning naming PROVIO_MEMORY, got %r" % warnings)
        print("many_files: %d files; at PROVIO_MEMORY=1M %d kept, %d calls marked memory-limit"
              % (N, len(kept), sum(lost)))


if __name__ == "__main__":
    main()
