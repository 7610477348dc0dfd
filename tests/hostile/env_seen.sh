#!/bin/bash
# What a program started by a traced shell sees in its environment: the same as without provio,
# apart from the variables the test itself sets to load provio (issue 10 item 8: provio injected
# PROVIO_PARENT_RUN).
#   env_seen.sh
env | grep -v -e '^LD_PRELOAD=' -e '^PROVIO_DIR=' -e '^PROVIO_LOG=' -e '^PWD=' -e '^OLDPWD=' | sort
