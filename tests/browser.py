"""A page opened in a real headless Chromium, driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: no port, no extra library), for the report's browser test.

:func:`open_page` loads a file at a laptop's window size and returns what the page
reported: console errors and uncaught exceptions, each image's natural width, the page's
text, its width against the window's, and a full-page screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

#: The names Debian and others give the browser's command.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: A laptop screen, in CSS pixels.
LAPTOP = (1366, 768)


def find_browser() -> str | None:
    """The path of a Chromium-family browser, or None."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class PageCheck:
    """What the browser saw."""

    errors: list[str]
    image_widths: list[int]
    text: str
    scroll_width: int
    window_width: int
    screenshot: bytes  # PNG, the whole page
    first_screen: bytes  # PNG, the window only


class _Pipe:
    """The DevTools protocol over a pipe: JSON messages ended by a NUL byte."""

    def __init__(self, browser: str, profile: str) -> None:
        to_browser_r, self._w = os.pipe()
        self._r, from_browser_w = os.pipe()
        # Kept above fd 4, so that the child's dup2 onto 3 and 4 never meets itself.
        high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD_CLOEXEC, 10)
        high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_browser_r)
        os.close(from_browser_w)

        def child_fds() -> None:
            os.dup2(high_r, 3)  # dup2 clears close-on-exec: the browser inherits 3 and 4
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-dev-shm-usage",
             "--remote-debugging-pipe", f"--user-data-dir={profile}",
             f"--window-size={LAPTOP[0]},{LAPTOP[1]}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child_fds, close_fds=False,
        )
        os.close(high_r)
        os.close(high_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: str | None = None, timeout: float = 60,
             **params) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        for e in self.events:
            if e.get("method") == method:
                return e
        while True:
            e = self._read(deadline)
            self.events.append(e)
            if e.get("method") == method:
                return e

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.call("Browser.close", timeout=10)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._r)
        os.close(self._w)


_PROBE = """JSON.stringify({
  widths: Array.from(document.images, i => i.complete ? i.naturalWidth : 0),
  text: document.body.innerText,
  scroll: document.documentElement.scrollWidth,
  window: document.documentElement.clientWidth,
})"""


def _errors(events: list[dict]) -> list[str]:
    out = []
    for e in events:
        method, p = e.get("method"), e.get("params", {})
        if method == "Runtime.exceptionThrown":
            out.append(f"exception: {p['exceptionDetails'].get('text')}")
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append("console: " + " ".join(str(a.get("value", "")) for a in p["args"]))
        elif method == "Log.entryAdded" and p["entry"].get("level") == "error":
            out.append(f"log: {p['entry'].get('text')}")
    return out


def open_page(browser: str, file: Path) -> PageCheck:
    """Load ``file`` in headless ``browser`` at :data:`LAPTOP` size and report on it."""
    with tempfile.TemporaryDirectory() as profile:
        pipe = _Pipe(browser, profile)
        try:
            target = pipe.call("Target.createTarget", url="about:blank")["targetId"]
            session = pipe.call("Target.attachToTarget", targetId=target,
                                flatten=True)["sessionId"]
            for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
                pipe.call(domain, session)
            pipe.call("Emulation.setDeviceMetricsOverride", session, width=LAPTOP[0],
                      height=LAPTOP[1], deviceScaleFactor=1, mobile=False)
            pipe.call("Page.navigate", session, url=file.resolve().as_uri())
            pipe.wait_event("Page.loadEventFired")
            probe = pipe.call("Runtime.evaluate", session, expression=_PROBE,
                              returnByValue=True)["result"]["value"]
            seen = json.loads(probe)
            first = pipe.call("Page.captureScreenshot", session, format="png")["data"]
            size = pipe.call("Page.getLayoutMetrics", session)["cssContentSize"]
            whole = pipe.call("Page.captureScreenshot", session, format="png",
                              captureBeyondViewport=True,
                              clip={"x": 0, "y": 0, "width": size["width"],
                                    "height": size["height"], "scale": 1})["data"]
            return PageCheck(_errors(pipe.events), seen["widths"], seen["text"],
                             seen["scroll"], seen["window"], base64.b64decode(whole),
                             base64.b64decode(first))
        finally:
            pipe.close()
