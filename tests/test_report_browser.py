"""The HTML report in a real headless Chromium, driven over the DevTools protocol (issue #7, #21).

Chromium runs with ``--remote-debugging-pipe``: the protocol's JSON messages, each ended by a
NUL byte, go in on file descriptor 3 and come out on 4, so the test needs nothing beyond the
standard library.  Every page of a report is loaded at 1400 x 1000, as a referee would open it,
and checked: no console error or exception, every internal link resolves (file and anchor),
MathML on every page that prints a statement (laid out: a non-zero box, a fraction's numerator
above its denominator), every plot visible once scrolled to, every text of a plot at least
10 px as rendered, no LaTeX shown as typed (``\\dots``, ``\\frac``, ``$``) and no math left in
the project's ASCII conventions (``sqrt(``, ``_1 <=``) in the text of the index, the errata and
the claim pages (MathML, code and plots aside), no horizontal overflow of the page or of a
statement, the forest plot
wholly in the first screen of the index and the index at most 8,000 px tall.  A full-page
screenshot of every page is kept under ``tmp_path`` and, when ``ILN_ARTIFACTS`` names a
directory, copied there.

The report checked is a smoke-profile report written for the test, or the one in the directory
``ILN_REPORT_DIR`` names (``ILN_REPORT_DIR=reports`` checks the committed report).  The test
never installs Chromium: without it, it skips and says how to install it (``.ci/run`` does).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import re
import shutil
import subprocess
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from verification import runner
from verification.report import write_report
from verification.report.explanations import heading_anchor

pytestmark = pytest.mark.system

#: claims whose details have every plot shape: tail points with a correction, means, fits
#: with their data, the fitted run-time exponents, the regenerated Figure 1.
CLAIMS = ["iln.lemma4.hoeffding", "iln.alg2.unbiased", "iln.thm1.regret", "iln.thm1.runtime",
          "iln.sec6.figure1"]
#: seconds to wait for one protocol answer or page load (a cold Chromium start is the slowest).
TIMEOUT_S = 60
#: a referee's screen (issue #21).
VIEWPORT = {"width": 1400, "height": 1000}
#: the tallest index the issue allows, and the smallest text it allows in a plot (CSS px).
MAX_INDEX_HEIGHT = 8000
MIN_TEXT_PX = 10
#: a screenshot taller than this is cut (a PNG of a very long page helps no one).
MAX_SHOT_HEIGHT = 16000
#: LaTeX shown as typed (issue #21: "no raw LaTeX"): a command, a dollar of math mode.
RAW_LATEX = re.compile(r"\\[A-Za-z]+|\$")
#: math left in the project's ASCII conventions, which the report renders as MathML.
ASCII_MATH = re.compile(r"sqrt\(|_1 <=|<=|>=|\|\||\^\(|_\{")

CHECKER = """
(async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = {links: [], math: [], fractions: [], plots: [], ids: [], fallbacks: 0,
               small_text: [], overflowing: [], forest: null};
  // getAttribute, not .href: an SVG <a> (the forest's rows) has no string href property.
  for (const a of document.querySelectorAll('a[href]'))
    out.links.push(new URL(a.getAttribute('href'), document.baseURI).href);
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
  for (const s of document.querySelectorAll('.statement')) {
    if (s.scrollWidth > s.clientWidth + 1) out.overflowing.push(s.textContent.slice(0, 80));
  }
  out.page = {scrollWidth: document.documentElement.scrollWidth, width: innerWidth,
              height: document.documentElement.scrollHeight, wide: []};
  // The outermost elements reaching past the right edge: what a failure names.
  for (const e of document.body.querySelectorAll('*')) {
    if (e.getBoundingClientRect().right > innerWidth + 1
        && !(e.parentElement && e.parentElement.getBoundingClientRect().right > innerWidth + 1))
      out.page.wide.push(e.tagName + '.' + e.className + ': ' + (e.textContent || '').slice(0, 60));
  }
  for (const t of document.querySelectorAll('svg text')) {
    const m = t.getScreenCTM();
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (t.textContent.trim() && size < MIN_TEXT_PX - 0.01)
      out.small_text.push(t.textContent.slice(0, 40) + ' @ ' + size.toFixed(1) + 'px');
  }
  const forest = document.querySelector('svg#forest');
  if (forest) {
    const r = forest.getBoundingClientRect();
    out.forest = {top: r.top + scrollY, bottom: r.bottom + scrollY, w: r.width, h: r.height};
  }
  for (const svg of document.querySelectorAll('figure svg')) {
    svg.scrollIntoView({block: 'center', inline: 'center'});
    await frame();
    const r = svg.getBoundingClientRect();
    const style = getComputedStyle(svg);
    out.plots.push({id: svg.closest('figure').id, w: r.width, h: r.height,
                    inView: r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth,
                    shown: style.visibility === 'visible' && style.display !== 'none'});
  }
  // The text a reader sees as text: MathML, code, plots and styles aside.
  const apart = new Set(['MATH', 'CODE', 'PRE', 'SVG', 'STYLE', 'SCRIPT', 'TITLE']);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    let e = n.parentElement;
    while (e && !apart.has(e.tagName.toUpperCase())) e = e.parentElement;
    if (!e) texts.push(n.data);
  }
  out.text = texts.join(' ');
  window.scrollTo(0, 0);
  await frame();
  return out;
})()
""".replace("MIN_TEXT_PX", str(MIN_TEXT_PX))


def _chromium() -> str:
    """The Chromium binary; the test skips without one (it installs nothing itself)."""
    found = (os.environ.get("CHROMIUM") or shutil.which("chromium")
             or shutil.which("chromium-browser"))
    if not found:
        pytest.skip("no Chromium on PATH (chromium or chromium-browser, or CHROMIUM=path): "
                    "install Debian's chromium to run this test; .ci/run does")
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
    given = os.environ.get("ILN_REPORT_DIR")
    if given:
        return Path(given).resolve()
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


def _screenshot(tools: DevTools, session: str, height: float, path: Path) -> None:
    """A full-page PNG of the loaded page (cut at MAX_SHOT_HEIGHT)."""
    shot = tools.send("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": VIEWPORT["width"], "height": min(height, MAX_SHOT_HEIGHT),
                 "scale": 1}}, session=session)
    path.write_bytes(base64.b64decode(shot["data"]))


def test_report_renders_in_chromium(report, browser, tmp_path):
    tools, session = browser
    pages = [report / "index.html", *sorted(report.glob("*.html")) , *sorted((report / "claims").glob("*.html"))]
    pages = list(dict.fromkeys(pages))
    shots = tmp_path / "screenshots"
    shots.mkdir()
    ids, checked, plots, heights = {}, {}, 0, {}
    for page in pages:
        found = _load(tools, session, page)
        name = page.relative_to(report).as_posix()
        assert _errors(tools.events) == [], name
        checked[page] = found
        ids[page.resolve()] = set(found["ids"])
        heights[name] = found["page"]["height"]
        assert found["page"]["scrollWidth"] <= found["page"]["width"], \
            f"{name}: horizontal overflow: {found['page']['wide'][:3]}"
        assert found["overflowing"] == [], f"{name}: statements cut off at the right edge"
        assert found["small_text"] == [], f"{name}: plot text under {MIN_TEXT_PX} px"
        assert found["fallbacks"] == 0, name
        for m in found["math"]:
            assert m["mathml"], (name, m)
            assert min(m["w"], m["h"]) > 0, (name, m)
        assert all(found["fractions"]), f"{name}: a fraction is not laid out as MathML"
        for p in found["plots"]:
            assert min(p["w"], p["h"]) > 0, (name, p)
            assert p["inView"], (name, p)
            assert p["shown"], (name, p)
        plots += len(found["plots"])
        if page.name != "selftest.html":
            # Math in prose is MathML like the rest (issue #21): none left as typed.
            for pattern in (RAW_LATEX, ASCII_MATH):
                shown = [found["text"][max(0, m.start() - 40):m.end() + 20] for m in pattern.finditer(found["text"])]
                assert shown == [], f"{name}: math shown as typed: {shown[:3]}"
        _screenshot(tools, session, found["page"]["height"], shots / (name.replace("/", "--") + ".png"))
    index = checked[report / "index.html"]
    assert index["forest"] is not None, "index: no <svg id=forest>"
    assert index["forest"]["bottom"] <= VIEWPORT["height"], f"index: forest plot below the first screen {index['forest']}"
    assert heights["index.html"] <= MAX_INDEX_HEIGHT, heights["index.html"]
    # MathML where statements are printed (a statement wholly in prose, a quotation, has none)
    assert any(checked[p]["math"] for p in pages if p.parent.name == "claims")
    assert checked[report / "errata.html"]["math"], "errata.html: no <math> element"
    # every plot shape of the chosen claims is drawn, and the forest on the index
    assert plots >= len(CLAIMS) + 1
    for page, found in checked.items():
        for href in found["links"]:
            parts = urlsplit(href)
            assert parts.scheme == "file", f"{page.name}: non-local link {href}"
            target = Path(unquote(parts.path)).resolve()
            assert target.is_file(), f"{page.name}: broken link {href}"
            if parts.fragment and target.suffix == ".md":
                # A field's explanation in the documentation's source: one of its headings.
                headings = {heading_anchor(line.lstrip("#")) for line in target.read_text().splitlines()
                            if line.startswith("#")}
                assert parts.fragment in headings, f"{page.name}: missing heading {href}"
            elif parts.fragment:
                assert parts.fragment in ids.get(target, ()), f"{page.name}: missing anchor {href}"
    (tmp_path / "heights.json").write_text(json.dumps(heights, indent=1))
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in shots.iterdir())
    if os.environ.get("ILN_ARTIFACTS"):
        artifacts = Path(os.environ["ILN_ARTIFACTS"])
        artifacts.mkdir(parents=True, exist_ok=True)
        for shot in shots.iterdir():
            shutil.copy(shot, artifacts / shot.name)
        shutil.copy(tmp_path / "heights.json", artifacts / "heights.json")
