#!/usr/bin/env bash
# Every C/C++ source follows the committed .clang-format.
#   check_format.sh SOURCE_ROOT
set -euo pipefail
cd "$1"
mapfile -t files < <(find src include tools tests bench examples python -type f \
  \( -name '*.cc' -o -name '*.h' -o -name '*.c' -o -name '*.hpp' \) 2>/dev/null | sort)
[ ${#files[@]} -gt 50 ] || { echo "only ${#files[@]} sources found: the scan is broken"; exit 1; }
clang-format --dry-run -Werror "${files[@]}"
echo "ok: ${#files[@]} files formatted"
