#!/usr/bin/env bash
# A traced program inside a podman container (issue 35; docs/hpc-centres.md, "Containers"): the
# image is made with `podman import` from a local root tarball (the trixie root of
# scripts/roots.sh; no registry), provio's plugin and preload library, built for that root's HDF5,
# are bind-mounted in, and an h5py program runs under both. Afterwards the provenance directory,
# written from inside the container, is merged outside and must hold the program (the container's
# python3), the file, its group, dataset and attribute, and their writes and reads.
#
#   podman_test.sh ROOT_TARBALL ROOT_BUILD_DIR PROV_MERGE WORK
#
# ROOT_BUILD_DIR is a provio build made inside that root (its plugins/serial: h5py is serial).
set -euo pipefail
tarball=$1 build=$(realpath "$2") merge=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v podman >/dev/null || fail "podman is not installed (scripts/setup.sh installs it)"
[ -f "$tarball" ] || fail "no root tarball $tarball (scripts/roots.sh make trixie)"
plugins=$build/plugins/serial
[ -d "$plugins" ] || plugins=$build/plugins
[ -f "$build/src/posix/libprovio_posix.so" ] || fail "no preload library in $build"

# One image per tarball version: re-imported when the root is remade.
tag=provio-root:$(stat -c %Y-%s "$tarball")
if ! podman image exists "$tag"; then
  podman import --quiet "$tarball" "$tag" >/dev/null
fi

rm -rf "$work"
mkdir -p "$work"
cp "$here/h5py_rw.py" "$work/"
# The work directory is mounted at its own path, so that files have the same IRIs inside and
# outside (docs/hpc-centres.md); provio's build is mounted read-only where the image has nothing.
podman run --rm --network=none --hostname=provio-container \
  -v "$work:$work" -w "$work" -v "$build:/opt/provio:ro" \
  -e HDF5_PLUGIN_PATH="/opt/provio/${plugins#"$build"/}" \
  -e HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}" \
  -e LD_PRELOAD=/opt/provio/src/posix/libprovio_posix.so \
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
progs = list(g.subjects(rdflib.RDF.type, P.Program))
if len(progs) != 1 or str(g.value(progs[0], P.host)) != "provio-container" \
        or not str(g.value(progs[0], P.executable)).startswith("/usr/bin/python3"):
    fails.append(f"programs: {[(str(p), str(g.value(p, P.host)), str(g.value(p, P.executable))) for p in progs]}")
f = f"file://{work}/out.h5"
want = {f: P.File, f + "#/run": P.Group, f + "#/run/temperature": P.Dataset}
for iri, cls in want.items():
    if (rdflib.URIRef(iri), rdflib.RDF.type, cls) not in g:
        fails.append(f"no {cls.split('#')[1]} {iri}")

def apis(kind, rel):
    out = set()
    for act in g.subjects(rdflib.RDF.type, kind):
        for o in g.objects(act, rel):
            o = g.value(o, PROV.specializationOf) or o
            out.add((str(g.value(act, P.api)), str(o)))
    return out

writes, reads = apis(P.Write, PROV.generated), apis(P.Read, PROV.used)
for need, have in ((("H5Dwrite", f + "#/run/temperature"), writes), (("H5Dread", f + "#/run/temperature"), reads),
                   (("H5Awrite", f + "#/run@units"), writes)):
    if need not in have and not (need[0] == "H5Awrite" and any(a == "H5Awrite" for a, _ in have)):
        fails.append(f"no {need[0]} of {need[1]}")
if not any(a in ("pwrite", "write", "pwrite64") and o == f for a, o in writes):
    fails.append(f"no POSIX write of {f} (preload library): {sorted(writes)}")
for x in fails:
    print("FAIL:", x, file=sys.stderr)
sys.exit(1 if fails else 0)
PY
echo "ok: h5py in a podman container from the root tarball, recorded by the bind-mounted plugin and preload library"
