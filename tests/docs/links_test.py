#!/usr/bin/python3
"""The docs' links and benchmark commands lead somewhere: every relative Markdown link of
README.md, CHANGELOG.md and docs/*.md names an existing file and, with a #fragment into a
Markdown file, one of its headings (GitHub's anchors); every `bench/run NAME` names a benchmark
that `bench/run --list` lists.

  links_test.py SOURCE_DIR
"""
import glob
import os
import re
import subprocess
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
BENCH = re.compile(r"bench/run ([a-z_]+(?:/[a-z_]+)?)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchors(path):
    """GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as
    hyphens, a repeated one numbered."""
    seen, out = {}, set()
    for line in FENCE.sub("", open(path, encoding="utf-8").read()).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def main():
    root = sys.argv[1]
    docs = [os.path.join(root, "README.md"), os.path.join(root, "CHANGELOG.md")] + \
        sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    listed = subprocess.run([os.path.join(root, "bench", "run"), "--list"], capture_output=True, text=True)
    if listed.returncode != 0:
        sys.exit(f"bench/run --list failed:\n{listed.stderr}")
    benchmarks = {line.split()[0] for line in listed.stdout.splitlines() if line.strip()}
    errors, links = [], 0
    for doc in docs:
        if not os.path.exists(doc):
            continue
        text = open(doc, encoding="utf-8").read()
        where = os.path.relpath(doc, root)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            links += 1
            path, _, fragment = target.partition("#")
            file = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not os.path.exists(file):
                errors.append(f"{where}: link to {target}: no file {os.path.relpath(file, root)}")
            elif fragment and file.endswith(".md") and fragment not in anchors(file):
                errors.append(f"{where}: link to {target}: no heading #{fragment} in {os.path.relpath(file, root)}")
        for name in BENCH.findall(text):
            if name not in benchmarks:
                errors.append(f"{where}: `bench/run {name}`: no such benchmark (bench/run --list)")
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"ok: {links} links and the bench/run commands of {len(docs)} files")


main()
