"""prov-viz report in a real headless browser (Debian's chromium, driven over the DevTools
protocol on --remote-debugging-pipe): the page is self-contained, loads with no console error or
uncaught exception, shows the job's programs, files, charts, per-rank timeline and lineage
graph, its table sorting script works, and a full-page screenshot is taken. A negative control
page with a deliberate error proves the error detector works."""
import argparse
import base64
import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scenario import Checks, run_scenario  # noqa: E402

ap = argparse.ArgumentParser()
for name in ("prov-viz", "chromium", "a", "b", "c", "work"):
    ap.add_argument("--" + name, required=True)
args = ap.parse_args()
work = os.path.realpath(args.work)
prov = run_scenario(work, args.a, args.b, args.c)
check = Checks("prov_viz_report_browser")


report = os.path.join(work, "report.html")
r = subprocess.run([args.prov_viz, "report", "-o", report, prov], capture_output=True, text=True)
if r.returncode != 0:
    sys.exit(f"prov-viz report failed: {r.stderr}")
html = open(report, encoding="utf-8").read()
# Self-contained: nothing to fetch.
check(not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|<link\b|@import|url\(\s*["']?https?:""", html, re.I),
      "report references no external resource")


class Browser:
    """A minimal DevTools-protocol client over chromium's --remote-debugging-pipe (fd 3 in, fd 4 out)."""

    def __init__(self, chromium, profile):
        def high(fd):  # move a descriptor above 4, so placing the child's ends on 3 and 4 clobbers nothing
            h = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            os.close(fd)
            return h
        to_browser_r, self.to_browser = (high(fd) for fd in os.pipe())
        self.from_browser, from_browser_w = (high(fd) for fd in os.pipe())
        # The child reads commands on fd 3 and writes replies on fd 4: place them there in this
        # process around the spawn (this script is single-threaded), then restore.
        saved = {}
        for fd, end in ((3, to_browser_r), (4, from_browser_w)):
            try:
                saved[fd] = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            except OSError:
                saved[fd] = None
            os.dup2(end, fd)
        try:
            self.proc = subprocess.Popen(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--remote-debugging-pipe", f"--user-data-dir={profile}", "--window-size=1280,900", "about:blank"],
                pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        finally:
            for fd, old in saved.items():
                if old is None:
                    os.close(fd)
                else:
                    os.dup2(old, fd)
                    os.close(old)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from chromium")
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if ready:
                chunk = os.read(self.from_browser, 1 << 16)
                if not chunk:
                    raise EOFError("chromium closed the pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_browser, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                return self.events.pop(i)
        while True:
            m = self._read_message(deadline)
            if m.get("method") == method:
                return m
            self.events.append(m)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def load(browser, url):
    """Opens `url` in a new page; returns (session, errors seen up to and after load)."""
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        browser.send(domain + ".enable", session=session)
    browser.events.clear()
    browser.send("Page.navigate", {"url": url}, session=session)
    browser.wait_event("Page.loadEventFired")
    # A round trip after load: every console event emitted during load has arrived before it.
    browser.send("Runtime.evaluate", {"expression": "1"}, session=session)
    return session


def errors(browser):
    out = []
    for m in browser.events:
        p = m.get("params", {})
        if m.get("method") == "Runtime.exceptionThrown":
            out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
        elif m.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
            out.append("console." + p["type"] + ": " + json.dumps(p.get("args"))[:300])
        elif m.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
            out.append("log: " + p["entry"].get("text", "")[:300])
    return out


def evaluate(browser, session, expr):
    r = browser.send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=session)
    if "exceptionDetails" in r:
        raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
    return r["result"].get("value")


profile = tempfile.mkdtemp(prefix="prov-viz-chromium-")
browser = Browser(args.chromium, profile)
try:
    # Negative control: the detector must see a deliberate error.
    bad = os.path.join(work, "bad.html")
    with open(bad, "w") as f:
        f.write("<!DOCTYPE html><html><body><script>console.error('planted'); undefinedFunction();</script></body></html>")
    load(browser, "file://" + bad)
    planted = errors(browser)
    check(any("exception" in e for e in planted) and any("planted" in e for e in planted),
          f"negative control: planted errors detected: {planted}")

    session = load(browser, "file://" + report)
    seen = errors(browser)
    check(seen == [], f"report loads with no console error: {seen}")
    title = evaluate(browser, session, "document.title")
    check(title.startswith("provio report"), f"title: {title}")
    text = evaluate(browser, session, "document.body.innerText")
    for want in ("dassa_a", "dassa_b", "dassa_c", "WestSac.h5", "decimate.h5", "/das/strain", "Top I/O costs",
                 "Timeline", "Lineage of the outputs", "Trace-level", "I/O cost per rank", "Slowest rank",
                 "Access sizes", "Data flow"):
        check(want in text, f"report shows {want!r}")
    charts = evaluate(browser, session, "document.querySelectorAll('figure.chart svg rect').length")
    check(charts >= 5, f"bar charts drawn: {charts} bars")
    bars = evaluate(browser, session, "document.querySelectorAll('svg.timeline rect').length")
    # B ran at trace level: 8 reads + 4 writes + 4 file calls are separate bars.
    check(bars >= 16, f"timeline bars: {bars}")
    graph = evaluate(browser, session, "Array.from(document.querySelectorAll('.graph svg text')).map(t => t.textContent).join(' ')")
    check("detections.csv" in graph and "dassa_a" in graph and "WestSac.h5" in graph, f"lineage graph: {graph}")
    width = evaluate(browser, session, "Array.from(document.querySelectorAll('.graph svg')).pop().getBoundingClientRect().width")
    check(width > 100, f"lineage graph is laid out: width {width}")
    # The sorting script runs: clicking "bytes_written" twice sorts ascending.
    order = evaluate(browser, session, """(function () {
        var t = document.getElementById('files-table');
        var i = Array.from(t.tHead.rows[0].cells).findIndex(c => c.textContent === 'bytes_written');
        t.tHead.rows[0].cells[i].click(); t.tHead.rows[0].cells[i].click();
        return Array.from(t.tBodies[0].rows).map(r => parseFloat(r.cells[i].textContent)); })()""")
    check(order == sorted(order) and len(order) == 3, f"table sorts by click: {order}")
    check(errors(browser) == [], f"no error after interaction: {errors(browser)}")
    metrics = browser.send("Page.getLayoutMetrics", session=session)
    size = metrics.get("cssContentSize") or metrics["contentSize"]
    shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                   "clip": {"x": 0, "y": 0, "width": size["width"],
                                                            "height": min(size["height"], 6000), "scale": 1}},
                        session=session)
    png = base64.b64decode(shot["data"])
    with open(os.path.join(work, "report.png"), "wb") as f:
        f.write(png)
    check(png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20000, f"screenshot: {len(png)} bytes")
finally:
    browser.close()
    shutil.rmtree(profile, ignore_errors=True)

check.finish()
print(f"prov_viz_report_browser: all checks passed; screenshot {os.path.join(work, 'report.png')}")
