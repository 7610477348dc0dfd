#!/usr/bin/env bash
# Debian distribution roots (trixie: HDF5 1.14, Open MPI 5; sid: HDF5 2.x) for testing provio
# against the HDF5, h5py and MPI that users of those releases have (docs/distributions.md).
#
#   scripts/roots.sh make ROOT           make ROOT's tarball if it is not cached; print its path
#   scripts/roots.sh run ROOT CMD...     run CMD (bash -c) inside ROOT, as root
#   scripts/roots.sh shell ROOT          an interactive shell inside ROOT
#   scripts/roots.sh fresh ROOT          forget this tree's extracted copy of ROOT
#   scripts/roots.sh path ROOT           print where this tree's copy of ROOT is (or would be)
#
# ROOT is trixie or sid. A root is made once with mmdebstrap from the mirror apt already uses and
# cached as $PROVIO_CACHE/roots/ROOT.tar.zst (default ~/.cache/provio); delete that file to remake
# it. It is extracted in seconds into $PROVIO_ROOTS_WORK (default /var/tmp/provio-roots), one copy
# per source tree, kept between runs (a build inside it stays) and re-extracted when the tarball
# is newer. CMD runs in a private mount namespace (unshare -m) under chroot, with /proc, /dev and
# /sys mounted and this source tree bind-mounted at /provio; the mounts vanish with the command.
# Needs root (or sudo).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${PROVIO_CACHE:-$HOME/.cache/provio}/roots
work=${PROVIO_ROOTS_WORK:-/var/tmp/provio-roots}

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
log() { echo "roots: $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# What the tests inside a root need: provio's build (the distribution's HDF5, both flavours),
# the VOL tests, h5py's own test suite, netCDF4, h5py over MPI-IO and PyTorch.
common_packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates file zstd
  libhdf5-dev libhdf5-openmpi-dev hdf5-tools
  openmpi-bin libopenmpi-dev
  librdf0-dev libraptor2-dev librasqal3-dev raptor2-utils rasqal-utils redland-utils
  libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev libzstd-dev libcurl4-gnutls-dev
  python3 python3-rdflib python3-numpy python3-pytest
  python3-h5py python3-h5py-serial python3-h5py-mpi python3-mpi4py python3-netcdf4 python3-torch
)
packages_of() {
  case "$1" in
    trixie|sid) echo "${common_packages[*]}" ;;
    *) echo "roots.sh: unknown root '$1' (trixie or sid)" >&2; exit 1 ;;
  esac
}

tarball_of() { echo "$cache/$1.tar.zst"; }

make_root() {  # make_root ROOT: the cached tarball, made if missing
  local name=$1 tarball; tarball=$(tarball_of "$name")
  packages_of "$name" >/dev/null
  if [ -f "$tarball" ]; then echo "$tarball"; return; fi
  command -v mmdebstrap >/dev/null ||
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap zstd >&2
  local mirror; mirror=$("$here/scripts/mirror.sh")
  mkdir -p "$cache"
  log "making the $name root from $mirror (a few minutes, once)"
  local started=$SECONDS
  # sid's Release file may be past its Valid-Until date on a frozen mirror.
  as_root mmdebstrap --variant=apt --format=tar --quiet \
    --aptopt='Acquire::Check-Valid-Until "false"' \
    --aptopt='APT::Install-Recommends "false"' \
    --include="$(packages_of "$name" | tr ' ' ',')" \
    "$name" "$tarball.part" \
    "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $name main" >&2
  # mmdebstrap picks the compressor from the name; compress here so a partial file never looks done.
  zstd -q -T0 --rm "$tarball.part" -o "$tarball.part.zst"
  mv "$tarball.part.zst" "$tarball"
  log "$name root made in $((SECONDS - started)) s: $tarball ($(du -h "$tarball" | cut -f1))"
  echo "$tarball"
}

root_dir_of() {  # the extracted copy of ROOT for this source tree
  echo "$work/$1-$(echo "$here" | md5sum | cut -c1-8)"
}

extract_root() {  # extract_root ROOT: this tree's copy, extracted if missing or older than the tarball
  local name=$1 tarball dir; tarball=$(make_root "$name"); dir=$(root_dir_of "$name")
  if [ ! -f "$dir/.provio-extracted" ] || [ "$tarball" -nt "$dir/.provio-extracted" ]; then
    local started=$SECONDS
    as_root rm -rf "$dir"
    as_root mkdir -p "$dir"
    as_root tar -C "$dir" --zstd -xf "$tarball"
    as_root mkdir -p "$dir/provio"
    as_root touch "$dir/.provio-extracted"
    log "$name root extracted in $((SECONDS - started)) s into $dir"
  fi
  echo "$dir"
}

run_in() {  # run_in ROOT CMD...: CMD inside the root, under a private mount namespace
  local name=$1; shift
  local dir; dir=$(extract_root "$name")
  # The outer shell sets up the mounts in the new namespace, then chroots; nothing leaks out.
  as_root unshare -m --propagation private -- /bin/sh -euc '
    dir=$1 src=$2; shift 2
    mount -t proc proc "$dir/proc"
    mount --rbind /dev "$dir/dev"
    mount --rbind /sys "$dir/sys"
    mount --bind "$src" "$dir/provio"
    exec chroot "$dir" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      PROVIO_ROOT="'"$name"'" CI="${CI:-}" /bin/bash -c "cd /provio && $*"
  ' roots "$dir" "$here" "$@"
}

[ $# -ge 2 ] || usage
cmd=$1 name=$2; shift 2
case "$cmd" in
  make) make_root "$name" ;;
  run) [ $# -ge 1 ] || usage; run_in "$name" "$*" ;;
  shell) run_in "$name" "exec bash -i" ;;
  fresh) as_root rm -rf "$(root_dir_of "$name")" ;;
  path) root_dir_of "$name" ;;
  *) usage ;;
esac
