#!/usr/bin/env bash
# Prints the URI of the Debian mirror apt already uses on this machine (the one serving this
# machine's own release), so that other scripts fetch from it without naming a host themselves.
#   scripts/mirror.sh
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
codename=$(. /etc/os-release; echo "$VERSION_CODENAME")
find_mirror() {
  apt-get indextargets --format '$(ORIGIN) $(CODENAME) $(REPO_URI)' 2>/dev/null |
    awk -v c="$codename" '$1=="Debian" && $2==c {print $3; exit}'
}
mirror=$(find_mirror)
if [ -z "$mirror" ]; then  # no lists yet on a fresh machine
  as_root apt-get update -qq >&2
  mirror=$(find_mirror)
fi
[ -n "$mirror" ] || { echo "mirror.sh: cannot find the Debian mirror apt uses (apt-get indextargets)" >&2; exit 1; }
echo "$mirror"
