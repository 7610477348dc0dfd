"""A private Virtuoso Open Source instance for the store-server tests: its own ini in a temporary
directory, free localhost ports, no system service. One instance serves a whole test run (ctest
fixture store_server): `virtuoso.py start DIR` starts it and waits until it answers, `stop DIR`
stops it. Tests find it through DIR/server.json."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

SKIP = 77  # ctest SKIP_RETURN_CODE

INI = """[Database]
DatabaseFile = {d}/db.db
ErrorLogFile = {d}/db.log
TransactionFile = {d}/db.trx
xa_persistent_file = {d}/db.pxa
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {d}/temp.db
TransactionFile = {d}/temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql}
DisableUnixSocket = 1
ServerThreads = 8
CheckpointInterval = 60
NumberOfBuffers = {buffers}
MaxDirtyBuffers = {dirty}
DirsAllowed = {d}
[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = {d}
ServerThreads = 8
MaxClientConnections = 8
SSLPort = 127.0.0.1:{https}
SSLCertificate = {d}/tls/cert.pem
SSLPrivateKey = {d}/tls/key.pem
[SPARQL]
ResultSetMaxRows = 100000000
MaxQueryExecutionTime = 0
MaxQueryCostEstimationTime = 0
"""


# The SSL listener (SSLPort) starts with no virtual directories: the SPARQL services are defined on
# it as on the plain one (digest authentication, Virtuoso's default); and a loading account with
# its own password (tests check it never leaks). Virtuoso offers only digest, even on a path
# defined with sec=>'basic': basic is tested through a proxy (store_test.py, BasicProxy).
LOADER, LOADER_PASSWORD = "loader", "Lq7-never-shown"
VHOST = ("DB.DBA.VHOST_DEFINE (lhost=>'*sslini*', vhost=>'*sslini*', lpath=>'{lpath}', ppath=>'{ppath}', is_dav=>1, "
         "vsp_user=>'dba', opts=>vector('noinherit', 1){auth});\n")
DIGEST = ", sec=>'digest', realm=>'SPARQL', auth_fn=>'DB.DBA.HP_AUTH_SPARQL_USER'"
SETUP = (
    VHOST.format(lpath="/sparql-auth", ppath="/!sparql/", auth=DIGEST)
    + VHOST.format(lpath="/sparql-graph-crud-auth", ppath="/!sparql-graph-crud/", auth=DIGEST)
    + VHOST.format(lpath="/sparql", ppath="/!sparql/", auth="")
    + f"DB.DBA.USER_CREATE ('{LOADER}', '{LOADER_PASSWORD}');\n"
    + f"GRANT SPARQL_UPDATE TO \"{LOADER}\";\n")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def certificate(d):
    """A self-signed certificate for 127.0.0.1 (its own CA: clients trust it through DIR/tls/cert.pem)."""
    os.makedirs(d, mode=0o700)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", os.path.join(d, "key.pem"),
                    "-out", os.path.join(d, "cert.pem")], check=True, capture_output=True)


def binary():
    return shutil.which("virtuoso-t")


def info(d):
    """The running instance's {pid, http, https, netrc, ca, loader}; exits with SKIP when there is none."""
    if not binary():
        print("SKIP: virtuoso-t is not installed (apt-get install virtuoso-opensource-7-bin)")
        sys.exit(SKIP)
    with open(os.path.join(d, "server.json")) as f:
        return json.load(f)


def answering(http):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{http}/sparql?query=ASK%7B%7D", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def start(d, buffers=20000):
    """Starts an instance in `d` with `buffers` 8 KiB pages of cache (Virtuoso's guide: 170000 per
    2 GB of RAM it may use; the tests need little, the benchmark more)."""
    if not binary():
        print("SKIP: virtuoso-t is not installed (apt-get install virtuoso-opensource-7-bin)")
        return SKIP
    stop(d)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    http, https, sql = free_port(), free_port(), free_port()
    certificate(os.path.join(d, "tls"))
    with open(os.path.join(d, "virtuoso.ini"), "w") as f:
        f.write(INI.format(d=d, http=http, https=https, sql=sql, buffers=buffers, dirty=buffers * 3 // 4))
    netrc = os.path.join(d, "netrc")
    with open(os.open(netrc, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write("machine 127.0.0.1 login dba password dba\n")
    t0 = time.monotonic()
    log = open(os.path.join(d, "stdout.log"), "w")
    p = subprocess.Popen(["virtuoso-t", "-c", os.path.join(d, "virtuoso.ini"), "+foreground"], cwd=d,
                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    while not answering(http):
        if p.poll() is not None or time.monotonic() - t0 > 120:
            print(open(os.path.join(d, "stdout.log")).read()[-2000:])
            print("virtuoso did not start")
            p.kill()
            return 1
        time.sleep(0.2)
    setup = os.path.join(d, "setup.sql")
    with open(setup, "w") as f:
        f.write(SETUP)
    r = subprocess.run(["isql-vt", f"127.0.0.1:{sql}", "dba", "dba", setup], capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or "Error" in r.stdout + r.stderr:
        print(r.stdout, r.stderr)
        print("virtuoso: setting up HTTPS and the loading account failed")
        p.kill()
        return 1
    with open(os.path.join(d, "server.json"), "w") as f:
        json.dump({"pid": p.pid, "http": http, "https": https, "netrc": netrc,
                   "ca": os.path.join(d, "tls", "cert.pem"), "loader": [LOADER, LOADER_PASSWORD]}, f)
    print(f"virtuoso pid {p.pid} on 127.0.0.1:{http}, answering after {time.monotonic() - t0:.1f} s")
    return 0


def stop(d):
    try:
        with open(os.path.join(d, "server.json")) as f:
            pid = json.load(f)["pid"]
    except (OSError, ValueError):
        return 0
    try:
        os.kill(pid, signal.SIGTERM)
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.1)
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    shutil.rmtree(d, ignore_errors=True)
    return 0


if __name__ == "__main__":
    action, directory = sys.argv[1], os.path.abspath(sys.argv[2])
    sys.exit(start(directory, *map(int, sys.argv[3:4])) if action == "start" else stop(directory))
