"""A deal's first paint in the browser: from the player's PLAY (or ``n``) to the new deal's
cards drawn on the table, in headless Chromium (Debian's ``chromium``, driven by Playwright).

    python benches/serve_first_paint.py --deals 10

A real uvicorn server on loopback (the app ``castle serve`` runs, on a temporary data
directory) and the page as a player opens it. For each level, the first deal is dealt from the
picker (PLAY), the next ones with the ``n`` key at the table; each time the page's own clock
(``performance.now()``) runs from the key or click to the first animation frame after every
card of the deal is on the board: the request, the new deal made and saved, the answer, the
table drawn, and the frame painted. The cards then fly in (CSS transitions): the flight is
not timed, as the deal is on the screen from its first frame. The page load (the address
opened to the picker ready) is timed apart. The target: a deal's first paint at most
1 s in headless Chromium.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import tempfile
import threading
import time

import uvicorn
from castle.serve.app import create_app
from playwright.sync_api import Page, sync_playwright

TOKEN = "bench"

#: The levels timed: Easy's new deal waits for the solver's proof that it can be won.
LEVELS = ("easy", "medium", "hard", "spider")

#: Runs in the page: start the clock, do ``start`` (a click or a key), and stop it on the
#: first animation frame after a new deal is drawn (its number differs from the last one).
TIMED = """async ([how, before]) => {
  const t0 = performance.now();
  if (how === "play") document.getElementById("play").click();
  else document.dispatchEvent(new KeyboardEvent("keydown", {key: "n", bubbles: true}));
  for (;;) {
    await new Promise((done) => requestAnimationFrame(() => done()));
    const board = document.getElementById("board");
    const shown = document.getElementById("level-name").textContent;
    if (document.body.dataset.screen === "table" && shown !== before &&
        board.querySelectorAll(".card").length > 0) {
      await new Promise((done) => requestAnimationFrame(() => done()));
      return performance.now() - t0;
    }
    if (performance.now() - t0 > 30000) throw new Error("no deal drawn in 30 s");
  }
}"""


def timed(page: Page, how: str) -> float:
    before = page.inner_text("#level-name") if page.is_visible("#level-name") else ""
    return float(page.evaluate(TIMED, [how, before]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10, help="deals a level")
    args = parser.parse_args()
    executable = shutil.which("chromium")
    if executable is None:
        raise SystemExit("needs Debian's chromium: apt-get install chromium")

    with tempfile.TemporaryDirectory() as data_dir:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind(("127.0.0.1", 0))
        app = create_app(data_dir, token=TOKEN)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/?token={TOKEN}"
        loads: list[float] = []
        paints: dict[str, list[float]] = {level: [] for level in LEVELS}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable)
            for level in LEVELS:
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                started = time.perf_counter()
                page.goto(url)
                page.wait_for_selector("body[data-ready]")
                loads.append(time.perf_counter() - started)
                page.click(f'#levels [data-level="{level}"]')
                paints[level].append(timed(page, "play"))
                for _ in range(args.deals - 1):
                    page.wait_for_selector("body:not([data-busy])", state="attached")
                    paints[level].append(timed(page, "n"))
                page.close()
            browser.close()
        server.should_exit = True
        thread.join()

    ms = [t * 1000 for t in loads]
    print(f"page load to the picker: median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms")
    for level, times in paints.items():
        print(
            f"{level}: first paint of {len(times)} deals: median {statistics.median(times):.0f} "
            f"ms, max {max(times):.0f} ms"
        )


if __name__ == "__main__":
    main()
