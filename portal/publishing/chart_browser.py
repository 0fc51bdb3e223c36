"""The Chromium that renders chart images, kept open in the process once started.

Starting Chromium through kaleido takes about 3 s, a chart about 0.3 s once it is open; so the first chart
a web or Celery worker process renders starts it, and every later chart (a report's, a bundle's, the
compare page's downloads) is rendered by the same browser. It runs in a thread of its own with its own
event loop, which works whether or not the caller's thread already runs one (ASGI, async tests). A browser
that fails is closed and started again once; a forked child starts its own.
"""

import asyncio
import atexit
import logging
import os
import threading
from collections.abc import Coroutine, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

logger = logging.getLogger(__name__)

# A chart is rendered in well under a second; a browser that answers nothing in this long is closed.
RENDER_TIMEOUT_SECONDS = 120

Result = TypeVar("Result")
# A figure's dict and kaleido's options for it (format, width, height, scale).
RenderJob = tuple[dict, dict]


class ChartBrowser:
    """One kaleido browser per process, opened at the first render and kept open until :meth:`close`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._browser: Any = None
        self.starts = 0  # browsers opened by this process

    @property
    def is_open(self) -> bool:
        return self._browser is not None and self._pid == os.getpid()

    def render(self, jobs: Sequence[RenderJob]) -> list[bytes]:
        """Each job's image, in order, from the kept browser (opened first when it is not); a failure is
        retried once with a newly started browser, then raised."""
        with self._lock:
            for attempt in (1, 2):
                try:
                    self._open()
                    return self._run(self._render_all(jobs))
                except Exception:
                    self._close()
                    if attempt == 2:
                        raise
                    logger.warning("the chart browser failed; starting it again", exc_info=True)
        raise AssertionError("unreachable")

    def close(self) -> None:
        with self._lock:
            self._close()

    def _open(self) -> None:
        if self._pid != os.getpid():  # forked: the parent's thread and browser are not ours
            self._pid, self._loop, self._thread, self._browser = os.getpid(), None, None, None
        if self._browser is not None:
            return
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="chart-browser", daemon=True)
        thread.start()
        self._loop, self._thread = loop, thread
        self._browser = self._run(_opened())
        self.starts += 1

    async def _render_all(self, jobs: Sequence[RenderJob]) -> list[bytes]:
        return [await self._browser.calc_fig(figure, opts=opts) for figure, opts in jobs]

    def _run(self, coroutine: Coroutine[Any, Any, Result]) -> Result:
        assert self._loop is not None
        future: Future[Result] = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return future.result(timeout=RENDER_TIMEOUT_SECONDS)

    def _close(self) -> None:
        if self._pid != os.getpid() or self._loop is None:
            return
        try:
            if self._browser is not None:
                self._run(self._browser.close())
        except Exception:  # a browser that died is closed already
            logger.debug("closing the chart browser failed", exc_info=True)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(timeout=10)
            if self._thread is None or not self._thread.is_alive():
                self._loop.close()
            self._loop, self._thread, self._browser = None, None, None


async def _opened() -> Any:
    import kaleido

    # The charts carry no LaTeX, and MathJax would be fetched from a CDN at every browser start.
    browser = kaleido.Kaleido(n=1, mathjax=False)
    await browser.open()
    return browser


CHART_BROWSER = ChartBrowser()
atexit.register(CHART_BROWSER.close)
