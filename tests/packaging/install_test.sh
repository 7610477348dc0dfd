#!/usr/bin/env bash
# An installed provio used the ways the docs say (docs/hpc-centres.md), from a prefix that was
# moved after installation (relocatable): a consumer project built with find_package(provio) and
# with pkg-config, installed prov-run running a plain command and an HDF5 program, and the Lmod
# module file loaded with `module` (Debian's lmod; without it, the file's settings are checked).
#   install_test.sh BUILD_DIR H5PROG PYTHON_INSTALL_DIR VERSION
set -euo pipefail
build=$1 h5prog=$2 pydir=$3 version=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/provio-package-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/installed" >/dev/null
mv "$work/installed" "$work/moved"   # nothing may remember where it was installed
prefix=$work/moved

# 1. CMake package.
cmake -S "$here/consumer" -B "$work/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
cat "$work/cmake-build/package.txt"
# The primary flavour's plugin: lib/provio/plugins, or lib/provio/plugins/<flavour> when built
# against several HDF5 flavours.
plugins=$(sed -n 's/^PROVIO_PLUGIN_DIR=//p' "$work/cmake-build/package.txt")
[[ "$plugins" == "$prefix"/lib/provio/plugins* ]] && [ -f "$plugins/libprovio_vol.so" ] || fail "PROVIO_PLUGIN_DIR"
grep -qx "PROVIO_PRELOAD_LIBRARY=$prefix/lib/libprovio_posix.so" "$work/cmake-build/package.txt" || fail "PROVIO_PRELOAD_LIBRARY"
grep -qx "PROVIO_RUN=$prefix/bin/prov-run" "$work/cmake-build/package.txt" || fail "PROVIO_RUN"
grep -qx "posix=$prefix/lib/libprovio_posix.so" "$work/cmake-build/package.txt" || fail "provio::posix"
grep -qx "vol=$plugins/libprovio_vol.so" "$work/cmake-build/package.txt" || fail "provio::vol"
# Every HDF5 flavour's plugin directory, each holding its plugin.
grep -q "^flavour " "$work/cmake-build/package.txt" || fail "no PROVIO_PLUGIN_DIR_<FLAVOUR>"
while read -r dir; do
  [ -f "$dir/libprovio_vol.so" ] && [[ "$dir" == "$prefix"/lib/provio/plugins* ]] || fail "flavour plugin dir $dir"
done < <(sed -n 's/^flavour [^=]*=//p' "$work/cmake-build/package.txt")
PROVIO_DIR=$work/prov-cmake "$work/cmake-build/consumer"
zstdcat -qf "$work"/prov-cmake/*.ttl* | grep 'provio:metricName "consumer_loss"' >/dev/null || fail "CMake consumer recorded nothing"
[[ "$(ldd "$work/cmake-build/consumer")" == *"=> $prefix/lib/libprovio.so"* ]] || fail "CMake consumer not linked to the prefix"

# 2. pkg-config.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion provio)" = "$version" ] || fail "pkg-config version"
libdir=$(pkg-config --variable=libdir provio)
cc "$here/consumer/consumer.c" -o "$work/pc-consumer" $(pkg-config --cflags --libs provio) -Wl,-rpath,"$libdir"
PROVIO_DIR=$work/prov-pc "$work/pc-consumer"
zstdcat -qf "$work"/prov-pc/*.ttl* | grep 'provio:metricName "consumer_loss"' >/dev/null || fail "pkg-config consumer recorded nothing"
[ -f "$(pkg-config --variable=plugindir provio)/libprovio_vol.so" ] || fail "plugindir"
flavours=$(pkg-config --variable=flavours provio)
[ -n "$flavours" ] || fail "pkg-config flavours"
for f in $flavours; do
  [ -f "$(pkg-config --variable="plugindir_${f//[^A-Za-z0-9_]/_}" provio)/libprovio_vol.so" ] || fail "plugindir_$f"
done
[ "$(realpath "$(pkg-config --variable=preload provio)")" = "$prefix/lib/libprovio_posix.so" ] || fail "preload"

# 3. Installed prov-run finds the moved connector and preload library and its sibling tools.
mkdir "$work/job" && cd "$work/job"
"$prefix/bin/prov-run" -n -- true | tee dry.txt
grep -q "HDF5_PLUGIN_PATH='$prefix/lib/provio/plugins" dry.txt || fail "prov-run plugin dir"
grep -q "LD_PRELOAD='$prefix/lib/libprovio_posix.so'" dry.txt || fail "prov-run preload library"
echo data >in.txt
"$prefix/bin/prov-run" -q -- sh -c 'cat in.txt > out.txt'
"$prefix/bin/prov-run" -q -- "$h5prog" W.h5 >/dev/null
[[ "$("$prefix/bin/prov-query" lineage out.txt -f csv)" == *in.txt* ]] || fail "lineage after installed prov-run"
[[ "$("$prefix/bin/prov-query" stats --by api -f csv)" == *$'\nH5Dwrite,'* ]] || fail "VOL connector from the prefix"
# The installed SPARQL questions run on the installed prov-query's engine.
[[ "$("$prefix/bin/prov-query" sparql "$prefix/share/provio/queries/lineage.rq" -f csv)" == *out.txt*in.txt* ]] ||
  fail "shipped lineage.rq on the installed prov-query"

# 4. The Lmod module file.
modfile=$prefix/share/provio/modulefiles/provio/$version.lua
if [ -f /usr/share/lmod/lmod/init/bash ]; then
  unset PKG_CONFIG_PATH
  # shellcheck disable=SC1091
  . /usr/share/lmod/lmod/init/bash
  module use "$prefix/share/provio/modulefiles"
  module load provio
  [ "$PROVIO_ROOT" = "$prefix" ] || fail "module: PROVIO_ROOT=$PROVIO_ROOT"
  [ "$(command -v prov-run)" = "$prefix/bin/prov-run" ] || fail "module: PATH"
  [ -f "$PROVIO_PLUGIN_DIR/libprovio_vol.so" ] && [ -f "$PROVIO_PRELOAD" ] || fail "module: plugin dir / preload"
  for f in $PROVIO_HDF5_FLAVOURS; do
    var=PROVIO_PLUGIN_DIR_$(echo "${f//[^A-Za-z0-9_]/_}" | tr a-z A-Z)
    [ -f "${!var}/libprovio_vol.so" ] || fail "module: $var"
  done
  pkg-config --exists provio || fail "module: PKG_CONFIG_PATH"
  [ "$(PROVIO_DIR=$work/prov-py /usr/bin/python3 -c 'import provio; print(provio.__file__)')" = "$prefix/$pydir/provio/__init__.py" ] ||
    fail "module: PYTHONPATH"
  module unload provio
  [ -z "${PROVIO_ROOT:-}" ] || fail "module unload left PROVIO_ROOT"
  echo "ok: module load provio from $prefix"
else
  for line in 'setenv("PROVIO_ROOT", prefix)' 'prepend_path("PATH", pathJoin(prefix, "bin"))' \
              'prepend_path("PKG_CONFIG_PATH", pathJoin(prefix, "lib", "pkgconfig"))' \
              'setenv("PROVIO_PRELOAD", pathJoin(prefix, "lib", "libprovio_posix.so"))'; do
    grep -qF "$line" "$modfile" || fail "module file lacks $line"
  done
  for f in $(pkg-config --variable=flavours provio); do
    grep -q "setenv(\"PROVIO_PLUGIN_DIR_$(echo "${f//[^A-Za-z0-9_]/_}" | tr a-z A-Z)\"" "$modfile" ||
      fail "module file lacks flavour $f"
  done
  echo "ok: lmod not installed; the module file's settings checked"
fi
echo "ok: installed provio used from the moved prefix $prefix"
