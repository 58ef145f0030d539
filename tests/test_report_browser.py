"""The HTML report in a real headless Chromium, driven over the DevTools protocol (issue #7).

Chromium runs with ``--remote-debugging-pipe``: the protocol's JSON messages, each ended by a
NUL byte, go in on file descriptor 3 and come out on 4, so the test needs nothing beyond the
standard library.  Every page of a smoke-profile report is loaded and checked: no console error
or exception, every internal link resolves (file and anchor), every ``<math>`` element is laid
out as MathML (non-zero box; a fraction's numerator above its denominator), every plot has a
non-zero size and is in the viewport once scrolled to.  A screenshot of the index is kept under
``tmp_path`` and, when ``ILN_ARTIFACTS`` names a directory, copied there.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import shutil
import subprocess
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from verification import runner
from verification.report import write_report

#: claims whose details have every plot shape: tail points with a correction, means, fits
#: with their data, the fitted run-time exponents, the regenerated Figure 1.
CLAIMS = ["iln.lemma4.hoeffding", "iln.alg2.unbiased", "iln.thm1.regret", "iln.thm1.runtime",
          "iln.sec6.figure1"]
#: seconds to wait for one protocol answer or page load (a cold Chromium start is the slowest).
TIMEOUT_S = 60
VIEWPORT = {"width": 1280, "height": 900}

CHECKER = """
(async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = {links: [], math: [], fractions: [], plots: [], ids: [], fallbacks: 0};
  for (const a of document.querySelectorAll('a[href]')) out.links.push(a.href);
  for (const e of document.querySelectorAll('[id]')) out.ids.push(e.id);
  for (const m of document.querySelectorAll('math')) {
    const r = m.getBoundingClientRect();
    out.math.push({w: r.width, h: r.height, mathml: m instanceof MathMLElement});
  }
  for (const f of document.querySelectorAll('mfrac')) {
    const [num, den] = f.children;
    if (num && den) out.fractions.push(num.getBoundingClientRect().bottom
                                       <= den.getBoundingClientRect().top + 1);
  }
  out.fallbacks = document.querySelectorAll('.math-fallback').length;
  for (const svg of document.querySelectorAll('figure.plot svg')) {
    svg.scrollIntoView({block: 'center', inline: 'center'});
    await frame();
    const r = svg.getBoundingClientRect();
    const style = getComputedStyle(svg);
    out.plots.push({id: svg.closest('figure').id, w: r.width, h: r.height,
                    inView: r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth,
                    shown: style.visibility === 'visible' && style.display !== 'none'});
  }
  window.scrollTo(0, 0);
  await frame();
  return out;
})()
"""


def _chromium() -> str:
    """The Chromium binary, installed from Debian's package when missing and possible."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if not shutil.which("apt-get") or os.geteuid() != 0:
        pytest.skip("chromium is not installed and cannot be (no apt-get or not root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900, check=False)
        if done.returncode != 0:
            pytest.skip(f"chromium could not be installed: {' '.join(command)} failed: "
                        f"{done.stderr.strip().splitlines()[-1:]}")
    found = shutil.which("chromium")
    if not found:
        pytest.skip("apt-get installed chromium but no chromium binary is on PATH")
    return found


class DevTools:
    """A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe``."""

    def __init__(self, binary: str, profile_dir: Path):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def child_fds():  # the protocol's fixed descriptors in the child: 3 in, 4 out
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.log = (profile_dir.parent / "chromium.log").open("wb")
        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
             f"--user-data-dir={profile_dir}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, close_fds=False,
            preexec_fn=child_fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next_id = 0
        self._messages: queue.Queue = queue.Queue()
        self.events: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while chunk := os.read(self._from_chrome, 1 << 16):
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for message in messages:
                self._messages.put(json.loads(message))
        self._messages.put(None)

    def _next(self) -> dict:
        message = self._messages.get(timeout=TIMEOUT_S)
        if message is None:
            raise RuntimeError("chromium closed the DevTools pipe")
        if "method" in message:
            self.events.append(message)
        return message

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._next()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def wait_for(self, method: str, session: str) -> dict:
        for event in self.events:
            if event["method"] == method and event.get("sessionId") == session:
                self.events.remove(event)
                return event
        while True:
            message = self._next()
            if message.get("method") == method and message.get("sessionId") == session:
                self.events.remove(message)
                return message

    def close(self):
        with contextlib.suppress(RuntimeError, OSError, queue.Empty):
            self.send("Browser.close")
        try:
            self.process.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)
        self.log.close()


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("browser-report")
    runner.run(CLAIMS, profile="smoke", seed=0, jobs=1, store=base / "s.sqlite", quiet=True)
    write_report(base / "s.sqlite", base / "report")
    return base / "report"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    binary = _chromium()
    tools = DevTools(binary, tmp_path_factory.mktemp("chromium") / "profile")
    try:
        target = tools.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = tools.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for method in ("Runtime.enable", "Log.enable", "Page.enable"):
            tools.send(method, session=session)
        tools.send("Emulation.setDeviceMetricsOverride",
                   {**VIEWPORT, "deviceScaleFactor": 1, "mobile": False}, session=session)
        yield tools, session
    finally:
        tools.close()


def _errors(events: list[dict]) -> list[str]:
    out = []
    for e in events:
        params = e.get("params", {})
        if e["method"] == "Runtime.exceptionThrown":
            out.append(json.dumps(params.get("exceptionDetails", {}))[:300])
        elif e["method"] == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            out.append(json.dumps(params.get("args", []))[:300])
        elif e["method"] == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            out.append(params["entry"].get("text", "")[:300])
    return out


def _load(tools: DevTools, session: str, page: Path) -> dict:
    tools.events.clear()
    tools.send("Page.navigate", {"url": page.as_uri()}, session=session)
    tools.wait_for("Page.loadEventFired", session)
    result = tools.send("Runtime.evaluate", {"expression": CHECKER, "returnByValue": True,
                                             "awaitPromise": True}, session=session)
    assert "exceptionDetails" not in result, result
    return result["result"]["value"]


def test_report_renders_in_chromium(report, browser, tmp_path):
    tools, session = browser
    pages = [report / "index.html", *sorted((report / "claims").glob("*.html"))]
    ids, checked, plots, maths = {}, {}, 0, 0
    for page in pages:
        found = _load(tools, session, page)
        assert _errors(tools.events) == [], page.name
        checked[page] = found
        ids[page.resolve()] = set(found["ids"])
        assert found["fallbacks"] == 0, page.name
        assert found["math"], f"{page.name}: no <math> element"
        for m in found["math"]:
            assert m["mathml"], (page.name, m)
            assert min(m["w"], m["h"]) > 0, (page.name, m)
        assert all(found["fractions"]), f"{page.name}: a fraction is not laid out as MathML"
        for p in found["plots"]:
            assert min(p["w"], p["h"]) > 0, (page.name, p)
            assert p["inView"], (page.name, p)
            assert p["shown"], (page.name, p)
        plots += len(found["plots"])
        maths += len(found["math"])
    # every plot shape of the chosen claims is drawn, and the tightness chart on the index
    assert plots >= len(CLAIMS) + 1
    assert maths > len(pages)
    for page, found in checked.items():
        for href in found["links"]:
            parts = urlsplit(href)
            assert parts.scheme == "file", f"{page.name}: non-local link {href}"
            target = Path(unquote(parts.path)).resolve()
            assert target.is_file(), f"{page.name}: broken link {href}"
            if parts.fragment:
                assert parts.fragment in ids.get(target, ()), f"{page.name}: missing anchor {href}"
    _load(tools, session, report / "index.html")
    metrics = tools.send("Page.getLayoutMetrics", session=session)["cssContentSize"]
    shot = tools.send("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": VIEWPORT["width"], "height": min(metrics["height"], 6000),
                 "scale": 1}}, session=session)
    screenshot = tmp_path / "report-index.png"
    screenshot.write_bytes(base64.b64decode(shot["data"]))
    assert screenshot.read_bytes().startswith(b"\x89PNG")
    if os.environ.get("ILN_ARTIFACTS"):
        artifacts = Path(os.environ["ILN_ARTIFACTS"])
        artifacts.mkdir(parents=True, exist_ok=True)
        shutil.copy(screenshot, artifacts / screenshot.name)
