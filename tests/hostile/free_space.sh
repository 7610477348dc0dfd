#!/bin/sh
# provio's output on the same small file system as the application's data (a 1 MiB tmpfs): the
# application's own writes must still succeed (on main provio's files took 612 KiB and the
# application got ENOSPC; issue 10 item 6). provio keeps its free-space reserve, warns once.
#   free_space.sh <python> <hostile.py> <preload>      (root: mounts a tmpfs; else skipped, 77)
set -u
mnt=$(mktemp -d /tmp/provio-hostile-tmpfs-XXXXXX)
mount -t tmpfs -o size=1M provio-hostile "$mnt" 2>/dev/null || { rmdir "$mnt"; echo "cannot mount a tmpfs: skipped"; exit 77; }
"$1" "$2" --base "$mnt" --log "PROVIO_RESERVE" posix="$3" \
  /bin/sh -c 'for i in $(seq 60); do cp /etc/hostname f$i; done; head -c 400000 /dev/zero > big.dat && echo ok'
status=$?
umount "$mnt"
rmdir "$mnt"
exit $status
