"""The second SPARQL 1.1 server of the store-server tests: Oxigraph's engine behind
oxigraph_front.js (endpoints laid out as Apache Jena Fuseki's), started like the private Virtuoso of
virtuoso.py: `oxigraph.py start DIR`, `stop DIR`; tests find it through DIR/server.json. The
`oxigraph` npm package is installed by scripts/setup.sh under $PROVIO_CACHE (~/.cache/provio)."""
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request

import virtuoso

SKIP = virtuoso.SKIP
DATASET = "ds"


def module_dir():
    cache = os.environ.get("PROVIO_CACHE") or os.path.expanduser("~/.cache/provio")
    return os.path.join(cache, "oxigraph", "node_modules")


def missing():
    """Why the server cannot run here, or None."""
    if not shutil.which("node"):
        return "node is not installed (apt-get install nodejs)"
    if not os.path.isdir(os.path.join(module_dir(), "oxigraph")):
        return f"the oxigraph npm package is not under {module_dir()} (scripts/setup.sh installs it)"
    return None


def info(d):
    """The running instance's {pid, http, kind}; exits with SKIP when it cannot run here."""
    why = missing()
    if why:
        print("SKIP:", why)
        sys.exit(SKIP)
    with open(os.path.join(d, "server.json")) as f:
        return json.load(f)


def answering(port):
    try:
        url = f"http://127.0.0.1:{port}/{DATASET}/query?query=ASK%7B%7D"
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def start(d):
    why = missing()
    if why:
        print("SKIP:", why)
        return SKIP
    stop(d)
    os.makedirs(d)
    port_file = os.path.join(d, "port")
    front = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oxigraph_front.js")
    log = open(os.path.join(d, "stdout.log"), "w")
    p = subprocess.Popen(["node", front, port_file, DATASET], cwd=d, stdout=log, stderr=subprocess.STDOUT,
                         env=dict(os.environ, NODE_PATH=module_dir()), start_new_session=True)
    t0 = time.monotonic()
    while not (os.path.exists(port_file) and answering(int(open(port_file).read() or 0))):
        if p.poll() is not None or time.monotonic() - t0 > 60:
            print(open(os.path.join(d, "stdout.log")).read()[-2000:])
            print("oxigraph front did not start")
            p.kill()
            return 1
        time.sleep(0.1)
    port = int(open(port_file).read())
    with open(os.path.join(d, "server.json"), "w") as f:
        json.dump({"pid": p.pid, "http": port, "kind": "oxigraph", "dataset": DATASET}, f)
    print(f"oxigraph front pid {p.pid} on 127.0.0.1:{port}, answering after {time.monotonic() - t0:.1f} s")
    return 0


def stop(d):
    return virtuoso.stop(d)


if __name__ == "__main__":
    action, directory = sys.argv[1], os.path.abspath(sys.argv[2])
    sys.exit(start(directory) if action == "start" else stop(directory))
