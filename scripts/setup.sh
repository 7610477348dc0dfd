#!/usr/bin/env bash
# Installs everything provio needs on a fresh Debian 12 machine, then makes sure an HDF5 >= 1.14
# (parallel, shared, C + HL + tools + the VOL API tests) exists.
#
#   scripts/setup.sh [--hdf5-prefix DIR]
#
# HDF5 resolution order: --hdf5-prefix / $HDF5_ROOT (a user's own 1.14: nothing is built), then the
# cache prefix ($PROVIO_CACHE, default ~/.cache/provio), where a previous run may have built it;
# otherwise the `hdf5` source package of Debian's next release is fetched with `apt-get source`
# through a private deb-src list pointing at the mirror apt already uses, and built into the cache.
# The script prints the HDF5 prefix on its last line (scripts/env.sh reads it).
set -euo pipefail

HDF5_WANT_SERIES=1.14
NEXT_RELEASE=trixie
cache=${PROVIO_CACHE:-$HOME/.cache/provio}
hdf5_prefix=${HDF5_ROOT:-}
while [ $# -gt 0 ]; do
  case "$1" in
    --hdf5-prefix) hdf5_prefix=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$1'" >&2; exit 1 ;;
  esac
done

log() { echo "setup: $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(
  build-essential g++ cmake ninja-build pkg-config git dpkg-dev ca-certificates file clang-format
  clang libclang-rt-14-dev
  openmpi-bin libopenmpi-dev
  librdf0-dev libraptor2-dev librasqal3-dev raptor2-utils rasqal-utils redland-utils
  libgtest-dev libgmock-dev libbenchmark-dev
  graphviz python3 python3-rdflib python3-numpy chromium
  lmod tcsh
  zlib1g-dev
  libzstd-dev zstd  # compressed raw files (docs/format.md): libprovio writes zstd frames, the tools read them
  valgrind  # bench/posix/instructions, bench/vol/instructions: cachegrind counts
  # the shared store (docs/shared-store.md): libcurl for the tools' HTTP (the GnuTLS flavour,
  # because libraptor2-dev depends on it and the OpenSSL one would remove Redland's headers) and
  # Virtuoso Open Source's binaries for the store-server tests (no system service); openssl makes
  # the test server's self-signed certificate (store_server.auth)
  libcurl4-gnutls-dev virtuoso-opensource-7-bin openssl
  nettle-dev  # SHA-256 of IRIs too long for a SPARQL server (tools/sparql/long_iri.h)
  # prov-query's SPARQL engine and the second SPARQL server of the store-server tests:
  # Oxigraph's engine under node (below)
  nodejs
  # the container test (tests/container/podman_test.sh): podman, and runc, which runs where crun
  # refuses a hybrid cgroup setup
  podman runc
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# --- Oxigraph and sparqljs -------------------------------------------------------------------
# prov-query's SPARQL 1.1 engine (tools/query/oxigraph.h, docs/sparql.md) and the second SPARQL
# server of the store-server tests besides Virtuoso (tests/store_server/oxigraph_front.js):
# Oxigraph's JavaScript bindings under node, and sparqljs, the SPARQL parser that tells prov-query
# which triples a query can match. The build finds them here (PROVIO_OXIGRAPH_DIR), installed
# together (one npm install: a later one would remove the other as extraneous). npm comes with
# some builds of nodejs and is Debian's package `npm` otherwise.
oxigraph_packages=(oxigraph@0.5.11 sparqljs@3.7.4)
oxigraph_dir=$cache/oxigraph
oxigraph_missing=
for package in "${oxigraph_packages[@]}"; do
  json=$oxigraph_dir/node_modules/${package%@*}/package.json
  [ -f "$json" ] && grep -q "\"version\": \"${package#*@}\"" "$json" || oxigraph_missing=1
done
if [ -n "$oxigraph_missing" ]; then
  command -v npm >/dev/null ||
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >&2 || true
  log "installing the npm packages ${oxigraph_packages[*]} into $oxigraph_dir"
  mkdir -p "$oxigraph_dir"
  (cd "$oxigraph_dir" && npm install --no-save --no-package-lock --no-audit --no-fund \
     "${oxigraph_packages[@]}" >&2) ||
    { log "${oxigraph_packages[*]} could not be installed into $oxigraph_dir: prov-query sparql needs them"; exit 1; }
fi

# --- HDF5 -------------------------------------------------------------------------------------
hdf5_version_of() {  # prints the version of the HDF5 installed under $1, or nothing
  local h="$1/include/H5public.h"
  [ -f "$h" ] || return 0
  awk '/#define H5_VERS_MAJOR/{a=$3} /#define H5_VERS_MINOR/{b=$3} /#define H5_VERS_RELEASE/{c=$3}
       END{if (a!="") print a"."b"."c}' "$h"
}
usable() {  # HDF5 under $1 is >= 1.14 and parallel
  local v; v=$(hdf5_version_of "$1")
  [ -n "$v" ] || return 1
  [ "$(printf '%s\n%s\n' "$HDF5_WANT_SERIES.0" "$v" | sort -V | head -1)" = "$HDF5_WANT_SERIES.0" ] || return 1
  grep -q '#define H5_HAVE_PARALLEL 1' "$1/include/H5pubconf.h" 2>/dev/null
}

if [ -n "$hdf5_prefix" ]; then
  usable "$hdf5_prefix" || { echo "setup.sh: no parallel HDF5 >= $HDF5_WANT_SERIES under '$hdf5_prefix'" >&2; exit 1; }
  log "using HDF5 $(hdf5_version_of "$hdf5_prefix") at $hdf5_prefix"
  echo "$hdf5_prefix"; exit 0
fi

for p in "$cache"/hdf5-*/; do
  p=${p%/}
  if [ -f "$p/.provio-complete" ] && usable "$p"; then
    log "using cached HDF5 $(hdf5_version_of "$p") at $p"
    echo "$p"; exit 0
  fi
done

mirror=$("$(dirname "$0")/mirror.sh")  # the mirror apt already uses (one home: mirror.sh)

src=$cache/src
apt_dir=$cache/apt
mkdir -p "$src" "$apt_dir/lists/partial" "$apt_dir/archives/partial"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb-src [signed-by=$keyring] $mirror $NEXT_RELEASE main" > "$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives"
          -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1")
log "fetching the hdf5 source package of $NEXT_RELEASE"
apt-get "${apt_opts[@]}" update -qq >&2
( cd "$src" && rm -rf hdf5-*/ && apt-get "${apt_opts[@]}" source -qq hdf5 >&2 )
srcdir=$(ls -d "$src"/hdf5-*/ | head -1); srcdir=${srcdir%/}
version=$(basename "$srcdir" | sed 's/^hdf5-//; s/+.*//')
prefix=$cache/hdf5-$version
build=$cache/build-hdf5-$version
log "building HDF5 $version into $prefix"
rm -rf "$build" "$prefix"
cmake -S "$srcdir" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_RPATH="$prefix/lib" -DCMAKE_INSTALL_RPATH_USE_LINK_PATH=ON \
  -DCMAKE_C_COMPILER=mpicc -DBUILD_SHARED_LIBS=ON -DBUILD_STATIC_LIBS=OFF \
  -DONLY_SHARED_LIBS=ON -DHDF5_ENABLE_PARALLEL=ON -DHDF5_BUILD_HL_LIB=ON -DHDF5_BUILD_TOOLS=ON \
  -DHDF5_BUILD_CPP_LIB=OFF -DHDF5_BUILD_FORTRAN=OFF -DHDF5_BUILD_JAVA=OFF \
  -DHDF5_BUILD_EXAMPLES=OFF -DHDF5_BUILD_UTILS=OFF -DHDF5_BUILD_HL_TOOLS=OFF \
  -DHDF5_ENABLE_Z_LIB_SUPPORT=ON -DHDF5_ENABLE_SZIP_SUPPORT=OFF \
  -DHDF_PACKAGE_NAMESPACE=hdf5:: \
  -DBUILD_TESTING=ON -DHDF5_TEST_API=ON -DHDF5_TEST_API_INSTALL=ON \
  -DHDF5_TEST_SERIAL=OFF -DHDF5_TEST_PARALLEL=OFF -DHDF5_TEST_TOOLS=OFF -DHDF5_TEST_SWMR=OFF \
  -DHDF5_TEST_VFD=OFF -DHDF5_TEST_PASSTHROUGH_VOL=OFF -DHDF5_TEST_FHEAP_PASSTHROUGH_VOL=OFF >&2
cmake --build "$build" -j "$(nproc)" >&2
cmake --install "$build" >&2
touch "$prefix/.provio-complete"
log "HDF5 $version ready at $prefix"
echo "$prefix"
