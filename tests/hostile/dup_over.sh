#!/bin/bash
# A shell script that opens descriptor 3 for its log (exec 3>) after traced I/O has happened, then
# writes to it and does more traced I/O. The log must hold exactly what the script wrote.
#   dup_over.sh <dir>
set -e
cd "$1"
echo input > input.txt
cat input.txt > copy.txt
exec 3>log.txt
echo "step 1" >&3
cat copy.txt > copy2.txt
exec 4>log2.txt 5>log3.txt
echo "step 2" >&3
echo "other" >&4
cat copy2.txt > copy3.txt
