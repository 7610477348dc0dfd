#!/bin/sh
# provio's output file system fills up between two of its writes (a 1 MiB tmpfs, no free-space
# reserve): the events of the flush that could not be written are counted lost and the graph says
# so (provio:incomplete "output-failed"), with one message, for compressed (written by the
# background writer) and plain files alike (full_disk.c).
#   full_disk.sh <python> <hostile.py> <preload> <full_disk program> <zstd|none>   (root: mounts a tmpfs; else skipped, 77)
set -u
mnt=$(mktemp -d /tmp/provio-hostile-full-XXXXXX)
mount -t tmpfs -o size=1M provio-full "$mnt" 2>/dev/null || { rmdir "$mnt"; echo "cannot mount a tmpfs: skipped"; exit 77; }
"$1" "$2" --base "$mnt" --env PROVIO_RESERVE=0 --env PROVIO_COMPRESS="$5" \
  --incomplete output-failed --log-once "No space left on device" posix="$3" "$4" {dir}
status=$?
umount "$mnt"
rmdir "$mnt"
exit $status
