#!/usr/bin/env python3
"""Opens an HTML page in headless Chromium with the network off and checks it as a reader sees it.

    browser_check.py PAGE.html [--expect TEXT ...] [--screenshot OUT.png [--full-page]]
                     [--no-script] [--sort-check]

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: no port, no
other process can attach). Fails (exit 1, a line per fault) on: an uncaught exception or a
console message of level error or warning; any request that is not the page itself (file:) or
inline (data:), blocked or not; an --expect text missing from the rendered text
(document.body.innerText, after the page's script ran); with --sort-check, a first sortable
table whose first column the page's script does not sort. --no-script loads the page with
JavaScript disabled (the page must read fully without it). Exit 77 with a reason line when no
Chromium is installed, unless CI=true, where that is a failure. APSP_CHROMIUM names the
browser's program (else the first of chromium, chromium-browser, google-chrome on PATH).
"""

import argparse
import base64
import json
import os
import pathlib
import select
import shutil
import subprocess
import sys
import tempfile
import time

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WIDTH, HEIGHT = 1280, 900


def find_browser():
    named = os.environ.get("APSP_CHROMIUM")
    if named:
        return named if shutil.which(named) else None
    return next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)


class Browser:
    """A headless Chromium and one page session, over fds 3 (commands) and 4 (replies)."""

    def __init__(self, exe, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        args = [
            exe,
            "--headless",
            "--remote-debugging-pipe",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-sync",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-default-apps",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--user-data-dir={profile}",
            f"--window-size={WIDTH},{HEIGHT}",
            "--hide-scrollbars",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        # Where a network namespace can be made, the browser has no network at all.
        if (
            shutil.which("unshare")
            and subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0
        ):
            args = ["unshare", "-n"] + args

        def wire():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        # 3 and 4 kept too: the child's copies made by wire() must survive its closing of the rest.
        self.proc = subprocess.Popen(
            args,
            pass_fds=(3, 4, to_browser_r, from_browser_w),
            preexec_fn=wire,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer, self.next_id, self.events, self.session = b"", 0, [], None

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = self.read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
        raise RuntimeError(f"{method}: no reply in {timeout} s")

    def read(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise RuntimeError("the browser stopped answering")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                err = self.proc.stderr.read().decode(errors="replace")[-2000:]
                raise RuntimeError(f"the browser exited: {err}")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\0", 1)
        message = json.loads(line)
        if "method" in message:
            self.events.append(message)
        return message

    def wait_for(self, method, timeout=30):
        deadline = time.time() + timeout
        while not any(e["method"] == method for e in self.events):
            self.read(deadline)

    def settle(self, seconds=0.5):
        """Reads the events that arrive in the next `seconds` (late console messages); a
        timer, not a script: the page may run none."""
        deadline = time.time() + seconds
        while True:
            left = deadline - time.time()
            if left <= 0:
                return
            if b"\0" not in self.buffer and not select.select([self.from_browser], [], [], left)[0]:
                return
            self.read(deadline + 30)

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def faults_of(events):
    """Console errors and warnings, uncaught exceptions and requests off the machine."""
    out = []
    for e in events:
        p = e.get("params", {})
        if e["method"] == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            what = d.get("exception", {}).get("description") or d.get("text")
            out.append(f"uncaught exception: {what}")
        elif e["method"] == "Runtime.consoleAPICalled" and p["type"] in (
            "error",
            "warning",
            "assert",
        ):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            out.append(f"console.{p['type']}: {text}")
        elif e["method"] == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
            entry = p["entry"]
            out.append(f"browser log ({entry['level']}): {entry['text']} {entry.get('url', '')}")
        elif e["method"] == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if not url.startswith(("file:", "data:", "about:")):
                out.append(f"a request off the page: {url}")
    return out


SORT_CHECK = """(() => {
  const table = document.querySelector("table.sortable");
  if (!table) return "no sortable table";
  const column = () => Array.from(table.tBodies[0].rows, r => r.cells[0].textContent);
  const th = table.tHead.rows[0].cells[0];
  th.click();
  const up = column();
  th.click();
  const down = column();
  const numeric = th.classList.contains("num");
  const key = t => numeric ? parseFloat(t) : t.toLowerCase();
  const order = (x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0);
  const sorted = (a, sign) => a.every((v, i) => i === 0 || sign * order(a[i - 1], v) <= 0);
  if (!sorted(up, 1) || !sorted(down, -1))
    return "not sorted: " + up.join(",") + " / " + down.join(",");
  return th.getAttribute("aria-sort") === "descending" ? "" : "aria-sort not set";
})()"""


def check(browser, page, args):
    """Loads the page; returns the faults found."""
    b = browser
    target = b.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
    b.session = b.send(
        "Target.attachToTarget", {"targetId": target, "flatten": True}, session=False
    )["sessionId"]
    for domain in ("Runtime", "Log", "Network", "Page"):
        b.send(f"{domain}.enable")
    b.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
    )
    if args.no_script:
        b.send("Emulation.setScriptExecutionDisabled", {"value": True})
    b.send("Page.navigate", {"url": page.as_uri()})
    b.wait_for("Page.loadEventFired")
    b.settle()
    text = b.send(
        "Runtime.evaluate",
        {"expression": "document.body ? document.body.innerText : ''", "returnByValue": True},
    )["result"].get("value", "")
    faults = faults_of(b.events)
    faults += [f"not in the rendered text: {t!r}" for t in args.expect if t not in text]
    if args.sort_check:
        verdict = b.send("Runtime.evaluate", {"expression": SORT_CHECK, "returnByValue": True})
        if verdict["result"].get("value"):
            faults.append(f"sorting: {verdict['result'].get('value')}")
    if args.screenshot:
        if args.full_page:  # the viewport made as tall as the page (at most 12000 px)
            height = b.send(
                "Runtime.evaluate",
                {"expression": "document.documentElement.scrollHeight", "returnByValue": True},
            )["result"]["value"]
            b.send(
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": WIDTH,
                    "height": min(int(height), 12000),
                    "deviceScaleFactor": 1,
                    "mobile": False,
                },
            )
        shot = b.send("Page.captureScreenshot", {"format": "png"})
        pathlib.Path(args.screenshot).write_bytes(base64.b64decode(shot["data"]))
    return faults


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("page")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--screenshot")
    ap.add_argument("--full-page", action="store_true", help="the screenshot of the whole page")
    ap.add_argument("--no-script", action="store_true")
    ap.add_argument("--sort-check", action="store_true")
    args = ap.parse_args()
    exe = find_browser()
    if not exe:
        if os.environ.get("CI") == "true":
            print("FAIL: no Chromium (scripts/setup.sh installs Debian's chromium): CI runs this")
            return 1
        print("SKIP: no Chromium installed (scripts/setup.sh installs Debian's chromium)")
        return 77
    page = pathlib.Path(args.page).resolve()
    with tempfile.TemporaryDirectory(prefix="apsp-chromium-") as profile:
        browser = Browser(exe, profile)
        try:
            faults = check(browser, page, args)
        finally:
            browser.close()
    for f in faults:
        print(f"FAIL: {page.name}: {f}")
    if not faults:
        print(
            f"ok: {page.name}{' (no script)' if args.no_script else ''}: no console error, no "
            f"request, {len(args.expect)} texts shown"
            + (f", {args.screenshot}" if args.screenshot else "")
        )
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
