#!/usr/bin/env bash
# No arrow back up between libprovio's layers (docs/architecture.md): model includes no store/
# or api/ header, store no api/ header, and neither includes a component above them (vol/,
# posix/). The build also links each layer alone with the layers below it (src/CMakeLists.txt);
# this catches a header-only arrow too, and names the line.
#   check_layers.sh SOURCE_ROOT
set -euo pipefail
cd "$1"
status=0
# layer, the folders it must not include from
check() {
  local layer=$1 forbidden=$2 hits
  [ -d "src/$layer" ] || { echo "src/$layer: no such layer: the scan is broken"; exit 1; }
  hits=$(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"($forbidden)/" -r "src/$layer" || true)
  if [ -n "$hits" ]; then
    echo "src/$layer includes a header of a layer above it ($forbidden):"
    echo "$hits"
    status=1
  fi
}
check model 'store|api|vol|posix'
check store 'api|vol|posix'
check api 'vol|posix'
[ $status -eq 0 ] && echo "ok: model < store < api, no include back up"
exit $status
