#!/usr/bin/env python3
"""The browser's own CPU for one puzzle, with no bot around it: the floor under `sudobot web`.

    python3 benches/browser-floor.py [CYCLES] [--data]

A minimal WebDriver client (Python's standard library over chromedriver's HTTP API, Chromium with
the flags of webdriver.toml) does what a bot must do per puzzle and nothing else, on the demo
site's page (src/web/demo/page.html, with its own scripts) filled with a 9x9 board of 27 givens:

  - nav:            navigate to the page (served over HTTP by this script, as the demo site is);
  - nav+click:      and click the first cell;
  - nav+click+keys: and send 126 keys in one Element Send Keys (digits and Tabs, as sudobot's Tab
                    walk does).

It prints the CPU time (user + system) of chromedriver and every Chromium process per cycle,
best and median of CYCLES (default 6). Compare with `benches/session-cpu.sh target/release/sudobot
web --site demo --count N` (its steady-state cost per puzzle) on the same machine. `--data` loads
the page from a data: URL, `--file` from a file, instead of HTTP. FLOOR_ARGS adds Chromium flags,
FLOOR_BINARY names another Chromium binary and FLOOR_PREFS (JSON) sets profile preferences, to try what changes the cost.
"""

import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--window-size=1280,1024", "--remote-debugging-pipe",
]


def page():
    rows = []
    for r in range(9):
        cells = []
        for c in range(9):
            given = (r * 9 + c) % 3 == 1
            attrs = ' readonly value="%d"' % ((r * 3 + r // 3 + c) % 9 + 1) if given else ""
            first = ' id="first"' if (r, c) == (0, 0) else ""
            cells.append('<td><input class="cell"%s%s></td>' % (first, attrs))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    with open(os.path.join(ROOT, "src/web/demo/page.html")) as f:
        html = f.read()
    return (html.replace("{{ROWS}}", "\n".join(rows)).replace("{{LEVEL}}", "2")
            .replace("{{BLANKS}}", "54"))


def cpu_of_tree(root):
    """User + system seconds of `root` and all its descendants."""
    pids, total, i = [root], 0, 0
    while i < len(pids):
        pid = pids[i]
        i += 1
        try:
            for task in os.listdir("/proc/%d/task" % pid):
                with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                    pids += [int(k) for k in f.read().split()]
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / os.sysconf("SC_CLK_TCK")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    cycles = int(args[0]) if args else 6
    html = page()
    body = html.encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/play" % server.server_address[1]
    page_path = None
    if "--data" in sys.argv:
        url = "data:text/html," + urllib.parse.quote(html)
    if "--file" in sys.argv:
        page_file = tempfile.NamedTemporaryFile("w", suffix=".html", delete=False)
        page_file.write(html)
        page_file.close()
        page_path = page_file.name
        url = "file://" + page_path

    driver = shutil.which("chromedriver")
    if not driver:
        sys.exit("browser-floor: chromedriver is missing (apt-get install chromium chromium-driver)")
    port_probe = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = port_probe.server_address[1]
    port_probe.server_close()
    profile = tempfile.mkdtemp(prefix="browser-floor-")
    proc = subprocess.Popen([driver, "--port=%d" % port], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)

    def call(method, path, payload=None):
        data = json.dumps(payload).encode() if payload is not None else None
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), data=data,
                                         method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())["value"]

    session = None
    try:
        deadline = time.time() + 20
        while True:
            try:
                call("GET", "/status")
                break
            except OSError:
                if time.time() > deadline:
                    sys.exit("browser-floor: chromedriver did not answer within 20 s")
                time.sleep(0.05)  # polling the driver's start, bounded above
        base = os.environ["FLOOR_BASE"].split() if "FLOOR_BASE" in os.environ else FLAGS
        options = {"args": base + ["--user-data-dir=" + profile]
                   + os.environ.get("FLOOR_ARGS", "").split()}
        if os.environ.get("FLOOR_BINARY"):
            options["binary"] = os.environ["FLOOR_BINARY"]
        if os.environ.get("FLOOR_PREFS"):
            options["prefs"] = json.loads(os.environ["FLOOR_PREFS"])
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome",
                                                 "goog:chromeOptions": options}}}
        session = call("POST", "/session", caps)["sessionId"]
        s = "/session/" + session
        keys = ("5\ue004\ue004" * 42)[:126]

        def cycle(steps):
            call("POST", s + "/url", {"url": url})
            found = call("POST", s + "/element", {"using": "css selector", "value": "#first"})
            element = list(found.values())[0]
            if "click" in steps:
                call("POST", s + "/element/%s/click" % element, {})
            if "keys" in steps:
                call("POST", s + "/element/%s/value" % element, {"text": keys})

        cycle("warm up")
        print("%d cycles, page from %s" % (cycles, "a data: URL" if url.startswith("data:")
                                             else "HTTP"))
        for steps in ["nav", "nav+click", "nav+click+keys"]:
            spent = []
            for _ in range(cycles):
                before = cpu_of_tree(proc.pid)
                cycle(steps)
                spent.append(cpu_of_tree(proc.pid) - before)
            print("%-15s CPU per cycle: best %4.0f ms, median %4.0f ms" % (
                steps, 1000 * min(spent), 1000 * statistics.median(spent)))
    finally:
        if session:
            try:
                call("DELETE", "/session/" + session)
            except OSError:
                pass
        # The whole process group: chromedriver and any browser it left behind.
        try:
            os.killpg(proc.pid, 15)
        except ProcessLookupError:
            pass
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)
        if page_path:
            os.unlink(page_path)
        server.shutdown()


if __name__ == "__main__":
    main()
