"""Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``):
open a page at a given viewport width, evaluate a script there, take a screenshot.  No
websocket library and no network: messages are JSON, each ended by a NUL byte, on file
descriptors 3 (to the browser) and 4 (from it)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

BROWSERS = ("chromium", "chromium-browser", "chromium-headless-shell", "google-chrome")


def executable() -> str:
    found = next((b for b in map(shutil.which, BROWSERS) if b), None)
    assert found, "the page tests need headless Chromium: apt-get install chromium (.ci/run installs it)"
    return found


class Browser:
    """One headless browser and one tab; ``with Browser() as b: b.open(page, 390)``."""

    def __init__(self) -> None:
        self.errors: list[str] = []  # exceptions the page threw (Runtime.exceptionThrown)
        self._profile = tempfile.TemporaryDirectory(prefix="unosim-chromium-")
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        # the child's fd 3 reads what we write, its fd 4 writes what we read
        self._proc = subprocess.Popen(
            [executable(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
             "--remote-debugging-pipe", f"--user-data-dir={self._profile.name}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=lambda: (os.dup2(to_r, 3), os.dup2(from_w, 4)),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self._out, self._in = os.fdopen(to_w, "wb"), os.fdopen(from_r, "rb")
        self._id = 0
        self._buf = b""
        target = self._call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self._call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self._call("Page.enable", session=True)
        self._call("Runtime.enable", session=True)

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buf:
            chunk = self._in.read1(1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def _call(self, method: str, session: bool = False, wait_event: str | None = None, **params: Any) -> Any:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self._session
        self._out.write(json.dumps(msg).encode() + b"\0")
        self._out.flush()
        result, seen = None, wait_event is None
        while result is None or not seen:
            m = self._read()
            if m.get("id") == self._id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                result = m["result"]
            elif m.get("method") == wait_event:
                seen = True
            elif m.get("method") == "Runtime.exceptionThrown":
                self.errors.append(json.dumps(m["params"])[:500])
        return result

    def open(self, page: Path, width: int, height: int = 900) -> None:
        """Load ``page`` in a viewport ``width`` CSS pixels wide (a phone's, mobile, below 600)."""
        self.errors = []
        self._call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                   deviceScaleFactor=1, mobile=width < 600)
        self._call("Page.navigate", session=True, wait_event="Page.loadEventFired", url=page.resolve().as_uri())

    def evaluate(self, expression: str) -> Any:
        """The value of ``expression`` (JSON-serialisable) in the page."""
        r = self._call("Runtime.evaluate", session=True, expression=expression, returnByValue=True,
                       awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(json.dumps(r["exceptionDetails"])[:1000])
        return r["result"].get("value")

    def screenshot(self, dest: Path) -> Path:
        """The whole page, as tall as it is, to a PNG."""
        data = self._call("Page.captureScreenshot", session=True, format="png", captureBeyondViewport=True)["data"]
        dest.write_bytes(base64.b64decode(data))
        return dest

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._call("Browser.close")
        except (RuntimeError, OSError, ValueError):
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._out.close()
        self._in.close()
        self._profile.cleanup()


LAYOUT = """(function () {
  var out = {width: window.innerWidth, scroll: document.documentElement.scrollWidth, small: [], figures: 0};
  document.querySelectorAll("figure img").forEach(function (img) {
    var shown = img.getBoundingClientRect().width;
    if (!shown) return;  // the other width's drawing
    out.figures++;
    var px = parseFloat(img.dataset.fontPt) * parseFloat(img.dataset.dpi) / 72 * shown / img.naturalWidth;
    if (px < 10) out.small.push(img.alt + " (" + img.className + "): " + px.toFixed(1) + " px");
  });
  return out;
})()"""
"""A page's layout as the checks read it: the viewport's width, the page's scroll width,
how many figures show, and each shown figure whose smallest text is under 10 CSS pixels
(its size in points times its dpi, scaled by the shown width over the image's own)."""
