"""prov-query from a prov-merge store at a campaign's shape (bench/campaign's generator: ranks
writing datasets with many attributes, every call an activity at trace level):
- stats, files, objects FILE and lineage FILE answer from each store form (Redland's where it has
  Berkeley DB, lines) exactly as from the merged N-Triples file;
- from a Redland store, stats and files hold no activity records: they sum the activity index
  beside the store as they read it (docs/prov-query.md), so peak memory does not grow with the
  activities (a store 6 times larger adds < 150 bytes per added activity; holding the records
  cost over 1 KB each);
- an activity index damaged midway is not answered from: the store answers, the same."""
import argparse
import os
import shutil
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--prov-merge", required=True)
ap.add_argument("--prov-query", required=True)
ap.add_argument("--campaign-gen", required=True)
ap.add_argument("--work", required=True)
args = ap.parse_args()
shutil.rmtree(args.work, ignore_errors=True)
os.makedirs(args.work)
QUESTIONS = (["stats"], ["files"], ["objects", "FILE"], ["lineage", "FILE"])
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def peak_rss(cmd):
    """Peak RSS (bytes) of `cmd`, run on its own under /usr/bin/time (GNU time's %M, kB)."""
    r = subprocess.run(["/usr/bin/time", "-f", "@@%M", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stderr}")
    return int([l for l in r.stderr.splitlines() if l.startswith("@@")][-1][2:]) * 1024


def has_bdb():
    probe = os.path.join(args.work, "probe")
    os.makedirs(probe)
    return subprocess.run(["rdfproc", "-n", "-s", "hashes", "-t", f"hash-type='bdb',dir='{probe}'", "provio", "add",
                           "http://example.org/s", "http://example.org/p", "http://example.org/o"],
                          capture_output=True).returncode == 0 if shutil.which("rdfproc") else False


def sanitized(binary):
    """Built with a sanitizer: its allocator holds freed memory back (ASan's quarantine), so peak
    memory says nothing about what the program holds."""
    with open(binary, "rb") as f:
        text = f.read()
    return b"__asan_init" in text or b"__tsan_init" in text


def campaign(name, datasets):
    """A campaign's raw files, its merged file and its stores: (merged, {form: store}, last file, activities)."""
    work = os.path.join(args.work, name)
    os.makedirs(work)
    raw = os.path.join(work, "raw")
    env = dict(os.environ, PROVIO_DIR=raw, PROVIO_LEVEL="trace")
    subprocess.run([args.campaign_gen, "--datasets", str(datasets), "--attributes", "10", "--ranks", "4"], env=env,
                   cwd=work, check=True)
    merged = os.path.join(work, "merged.nt")
    subprocess.run([args.prov_merge, "-q", raw, "-f", "ntriples", "-o", merged], check=True)
    stores = {}
    for form in FORMS:
        stores[form] = os.path.join(work, f"store-{form}")
        subprocess.run([args.prov_merge, "-q", raw, "--store", stores[form]], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, PROVIO_STORE_FORM=form))
        check(os.path.exists(os.path.join(stores[form], "prov-query-activities.tsv")),
              f"{name}: prov-merge wrote the activity index beside the {form} store")
    activities = datasets * (2 + 2 * 10)  # per dataset: its write, its read of the rank before, 10 attributes twice
    return merged, stores, os.path.join(work, "step3.h5"), activities


def answer(question, source, last):
    cmd = [args.prov_query, *[last if a == "FILE" else a for a in question], source]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


FORMS = ["redland", "lines"] if has_bdb() else ["lines"]
if "redland" not in FORMS:
    print("(this Redland has no Berkeley DB: the lines form only)")

small = campaign("small", 60)
for question in QUESTIONS:
    expected = answer(question, small[0], small[2])
    check(expected.count("\n") >= 2, f"{question[0]}: the merged file answers")
    for form, store in small[1].items():
        check(answer(question, store, small[2]) == expected, f"{question[0]}: the {form} store answers as the merged file")

if "redland" in FORMS:
    store = small[1]["redland"]
    index = os.path.join(store, "prov-query-activities.tsv")
    with open(index) as f:
        lines = f.readlines()
    expected = {q[0]: answer(q, small[0], small[2]) for q in QUESTIONS[:3]}
    # A line in the middle loses its fields (the header still matches the store): a damaged index,
    # which each question finds after handing on the records before it.
    lines[len(lines) // 2] = "damaged\n"
    for question in QUESTIONS[:3]:
        with open(index, "w") as f:
            f.writelines(lines)
        check(answer(question, store, small[2]) == expected[question[0]],
              f"{question[0]}: a damaged activity index midway: the store answers, the same")


if "redland" in FORMS and sanitized(args.prov_query):
    print("(prov-query is built with a sanitizer: peak memory not checked)")
elif "redland" in FORMS:
    big = campaign("big", 360)
    for question in ("stats", "files"):  # answers of a size that does not grow with the campaign
        cmd = lambda c: [args.prov_query, question, c[1]["redland"]]  # noqa: E731
        grown = (peak_rss(cmd(big)) - peak_rss(cmd(small))) / (big[3] - small[3])
        check(grown < 150, f"{question} from a Redland store: {grown:.0f} bytes of peak memory per added activity "
              "(< 150: the activity records are summed as read, not held)")

if failures:
    sys.exit(f"{len(failures)} checks failed: " + "; ".join(failures))
