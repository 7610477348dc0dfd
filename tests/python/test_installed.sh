#!/usr/bin/env bash
# `import provio` after install: installs the build into a fresh prefix, imports the package from
# there with nothing else on the path, and checks that it records through the installed library.
#   test_installed.sh PYTHON BUILD_DIR PYTHON_INSTALL_DIR
set -euo pipefail
python=$1 build=$2 pydir=$3
work=$(mktemp -d /tmp/provio-install-XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cd "$work"
PYTHONPATH="$work/prefix/$pydir" PROVIO_DIR="$work/prov" "$python" - "$work/prefix" <<'PY'
import os, sys
import provio
prefix = sys.argv[1]
assert provio.__file__.startswith(prefix), provio.__file__
with provio.task("installed") as t:
    provio.metric("m", 1.0, step=0)
maps = open("/proc/self/maps").read()
libs = {l.split()[-1] for l in maps.splitlines() if "libprovio.so" in l}
assert libs and all(l.startswith(prefix) for l in libs), libs
PY
# The raw files, compressed (the default) or plain: zstdcat -f passes plain ones through.
zstdcat -qf "$work"/prov/*.ttl* | grep 'provio:metricName "m"' >/dev/null
zstdcat -qf "$work"/prov/*.ttl* | grep 'rdfs:label "installed"' >/dev/null
echo "ok: import provio from $work/prefix/$pydir"
