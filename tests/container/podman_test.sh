#!/usr/bin/env bash
# A traced program inside a podman container (issue 35; docs/hpc-centres.md, "Containers"): the
# image is made with `podman import` from a local root tarball (the trixie root of
# scripts/roots.sh; no registry), provio's plugin and preload library, built for that root's HDF5,
# are bind-mounted in, and an h5py program runs under both. Afterwards the provenance directory,
# written from inside the container, is merged outside and must hold the program (the container's
# python3), the file, its group, dataset and attribute, and their writes and reads.
#
#   podman_test.sh ROOT PROV_MERGE WORK
#
# ROOT is a root of scripts/roots.sh (trixie): its cached tarball is the image, and the provio
# build made inside it by scripts/distro-test.sh (/root/build in the root) is what is mounted in.
# Exits 77 (skipped) when that build does not exist yet.
set -euo pipefail
root=$1 merge=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
roots=$here/../../scripts/roots.sh
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v podman >/dev/null || fail "podman is not installed (scripts/setup.sh installs it)"
in_root=/root/build  # where the build is inside the root, and so inside the container
build=$("$roots" path "$root")$in_root
if [ ! -f "$build/src/posix/libprovio_posix.so" ]; then
  echo "skipped: no provio build in the $root root yet ($build; scripts/distro-test.sh $root makes it)"
  exit 77
fi
tarball=$("$roots" make "$root")
plugins=$build/plugins/serial  # h5py is Debian's serial flavour outside MPI
[ -d "$plugins" ] || plugins=$build/plugins

# One image per tarball version: re-imported when the root is remade.
tag=provio-root:$(stat -c %Y-%s "$tarball")
if ! podman image exists "$tag"; then
  for old in $(podman images --format '{{.Repository}}:{{.Tag}}' | grep '/provio-root:' || true); do
    podman rmi "$old" >/dev/null
  done
  podman import --quiet "$tarball" "$tag" >/dev/null
fi

rm -rf "$work"
mkdir -p "$work"
cp "$here/h5py_rw.py" "$work/"
# The work directory is mounted at its own path, so that files have the same IRIs inside and
# outside (docs/hpc-centres.md); provio's build is mounted read-only at the path it was built at
# (its libraries find each other there).
# runc rather than crun where both are installed: crun refuses a host whose cgroup v2 hierarchy has
# controllers while v1 is mounted too (a hybrid setup, as on this project's CI VM). Limits are set
# explicitly because podman's defaults (nofile 1048576) may exceed what the host lets it raise.
runtime=()
command -v runc >/dev/null && runtime=(--runtime runc)
podman "${runtime[@]}" run --rm --network=none --hostname=provio-container \
  --ulimit nofile=1024:1024 --ulimit nproc=4096:4096 \
  -v "$work:$work" -w "$work" -v "$build:$in_root:ro" \
  -e HDF5_PLUGIN_PATH="$in_root/${plugins#"$build"/}" \
  -e HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}" \
  -e LD_PRELOAD=$in_root/src/posix/libprovio_posix.so \
  -e PROVIO_DIR="$work/prov" \
  "$tag" /usr/bin/python3 "$work/h5py_rw.py" "$work/out.h5" || fail "the program failed in the container"

"$merge" -q "$work/prov" -o "$work/merged.ttl" || fail "prov-merge failed"
/usr/bin/python3 - "$work" <<'PY'
import sys
import rdflib
work = sys.argv[1]
P = rdflib.Namespace("http://www.w3.org/ns/provio#")
PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
g = rdflib.Graph().parse(f"{work}/merged.ttl", format="turtle")
fails = []
progs = list(g.subjects(rdflib.RDF.type, P.Program))  # python3, and any child it starts
if not progs or any(str(g.value(p, P.host)) != "provio-container"
                    or not str(g.value(p, P.executable)).startswith("/usr/bin/python3") for p in progs):
    fails.append(f"programs: {[(str(p), str(g.value(p, P.host)), str(g.value(p, P.executable))) for p in progs]}")
f = f"file://{work}/out.h5"
d = f + "#/run/temperature"
want = {f: P.File, f + "#/run": P.Group, d: P.Dataset, f + "#/run@units": P.Attribute}
for iri, cls in want.items():
    if (rdflib.URIRef(iri), rdflib.RDF.type, cls) not in g:
        fails.append(f"no {cls.split('#')[1]} {iri}")


def apis(relation, entity):
    return {str(g.value(act, P.api)) for act in g.objects(rdflib.URIRef(entity), relation)}


for relation, entity, api in ((P.wasWrittenBy, d, "H5Dwrite"), (P.wasReadBy, d, "H5Dread"),
                              (P.wasWrittenBy, f + "#/run@units", "H5Awrite")):
    if api not in apis(relation, entity):
        fails.append(f"no {api} of {entity}: {apis(relation, entity)}")
# The preload library sees HDF5's own writes of the file below the connector.
if not apis(P.wasWrittenBy, f) & {"write", "pwrite", "pwrite64"}:
    fails.append(f"no POSIX write of {f}: {apis(P.wasWrittenBy, f)}")
for x in fails:
    print("FAIL:", x, file=sys.stderr)
sys.exit(1 if fails else 0)
PY
echo "ok: h5py in a podman container from the root tarball, recorded by the bind-mounted plugin and preload library"
