"""What bench/posix/run and bench/posix/instructions share: the build, the calls, a built file."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, os.environ.get("PROVIO_BUILD_DIR", "build"))
OPS = ["write_1B", "pread_4KiB", "open_close", "stat", "fopen_fwrite_fclose"]


def built(build, *parts):
    p = os.path.join(build, *parts)
    if not os.path.exists(p):
        sys.exit("bench/posix: %s not built (scripts/build.sh)" % p)
    return p
