"""A terminating signal whose flush can never finish (stuck_flush.c): the process must end —
killed when PROVIO_EXIT_TIMEOUT has passed — rather than hang. Without provio it dies of SIGTERM.
    stuck_flush.py <preload> <stuck_flush>"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

preload, program = sys.argv[1:]
work = tempfile.mkdtemp(prefix="provio-stuck-")
native = subprocess.run([program, work], timeout=30)
if native.returncode != -signal.SIGTERM:
    sys.exit("FAIL: without provio the program ended with %d, not SIGTERM" % native.returncode)
env = dict(os.environ, LD_PRELOAD=preload, PROVIO_DIR=os.path.join(work, "prov"), PROVIO_EXIT_TIMEOUT="2")
start = time.monotonic()
try:
    traced = subprocess.run([program, work], env=env, timeout=40)
except subprocess.TimeoutExpired:
    sys.exit("FAIL: the traced program hangs in its final flush")
took = time.monotonic() - start
if traced.returncode not in (-signal.SIGTERM, -signal.SIGKILL):
    sys.exit("FAIL: traced run ended with %d" % traced.returncode)
shutil.rmtree(work)
print("ok: ended after %.1f s (%s)" % (took, signal.Signals(-traced.returncode).name))
