#!/bin/sh
# PROVIO_CONFIG naming a FIFO that nobody writes: on main every traced program blocked at start
# opening it (issue 10 item 7). provio must refuse it without opening it for reading.
#   config_fifo.sh     (in the work directory)
mkfifo cfg.fifo
PROVIO_CONFIG="$PWD/cfg.fifo" cat /dev/null
rm cfg.fifo
echo done
