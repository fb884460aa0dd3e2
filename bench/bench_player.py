"""Benchmark of the puzzle player in Chromium: script milliseconds per animation frame while moves
glide, for the largest catalog puzzles (goal: under 16 ms per frame, i.e. 60 frames per second).

    python bench/bench_player.py [--names cube3 cube20 megaminx loopover-30x30] [--moves 12]

The page is web/player.js itself, served from the working tree to headless Chromium (no site, no
database): every requestAnimationFrame callback is timed in the page, and so is the synchronous part
of each move (applying it and repainting the stickers it carries). cube3 is the baseline in the same
run; frames per second count the frames Chromium actually drew during the glides. Timings are
noisy on a shared machine: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlehub.settings")

import django  # noqa: E402

django.setup()

from playwright.sync_api import sync_playwright  # noqa: E402

from puzzlehub.web.player import player_model  # noqa: E402
from solver import api  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
GOAL_MS = 16.0
PLAYER_JS = ROOT / "puzzlehub" / "web" / "static" / "web" / "player.js"

# times every animation-frame callback: the script cost of a frame as the player spends it
TIMING = """
window.__frames = [];
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (fn) => raf((t) => {
  const start = performance.now();
  fn(t);
  window.__frames.push([t, performance.now() - start]);
});
"""

PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<div class="player" id="p" data-model="m" data-initial="i">
<script type="application/json" id="m">{model}</script>
<script type="application/json" id="i">{{}}</script></div>
<script type="module">import {{ mountAll }} from "/player.js"; window.players = mountAll(); window.ready = true;</script>
</body></html>"""


def measure(page, model: dict, moves: int) -> dict:
    html = PAGE.format(model=json.dumps(model).replace("<", "\\u003c"))
    page.route("http://bench.test/", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.route("http://bench.test/player.js",
               lambda route: route.fulfill(body=PLAYER_JS.read_text(), content_type="text/javascript"))
    page.goto("http://bench.test/")
    page.wait_for_function("window.ready === true")
    names = [m["name"] for m in model["moves"] if all(not c["guard"] for c in m["cases"])][:moves] or \
        [model["moves"][0]["name"]]
    move_ms, frames, fps = [], [], []
    for k in range(moves):
        name = names[k % len(names)]
        page.evaluate("window.__frames = []")
        move_ms.append(page.evaluate(f"""() => {{
            const p = window.players[0]; p.tempo = 2;
            const t = performance.now(); p.play({json.dumps(name)}); return performance.now() - t; }}"""))
        page.wait_for_function("!window.players[0].animation", timeout=20_000)
        drawn = page.evaluate("window.__frames")
        frames += [ms for _t, ms in drawn]
        if len(drawn) > 2:
            span = (drawn[-1][0] - drawn[0][0]) / 1000
            fps.append((len(drawn) - 1) / span if span > 0 else 0)
    frames.sort()
    return {
        "stickers": model["stickers"],
        "frame_median_ms": statistics.median(frames),
        "frame_p95_ms": frames[int(0.95 * (len(frames) - 1))],
        "frame_max_ms": frames[-1],
        "move_median_ms": statistics.median(move_ms),
        "fps": statistics.median(fps) if fps else 0.0,
        "frames": len(frames),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", nargs="*", default=["cube3", "cube20", "megaminx", "loopover-30x30"])
    parser.add_argument("--moves", type=int, default=12)
    args = parser.parse_args()
    names = ["cube3"] + [n for n in args.names if n != "cube3"]  # the baseline first
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        results = {}
        for name in names:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.add_init_script(TIMING)
            results[name] = measure(page, player_model(api.load(name)), args.moves)
            page.close()
        browser.close()
    base = results["cube3"]["frame_p95_ms"] or 1e-9
    print(f"player bench: {args.moves} moves each, tempo 2/s, Chromium headless (shared machine: noisy)")
    print(f"{'puzzle':16} {'stickers':>8} {'frame med':>10} {'frame p95':>10} {'frame max':>10} "
          f"{'move ms':>8} {'fps':>5} {'p95/cube3':>9}  goal < {GOAL_MS:.0f} ms")
    for name, r in results.items():
        verdict = "ok" if r["frame_p95_ms"] < GOAL_MS else "OVER"
        print(f"{name:16} {r['stickers']:8} {r['frame_median_ms']:10.2f} {r['frame_p95_ms']:10.2f} "
              f"{r['frame_max_ms']:10.2f} {r['move_median_ms']:8.1f} {r['fps']:5.0f} "
              f"{r['frame_p95_ms'] / base:9.1f}  {verdict}")


if __name__ == "__main__":
    main()
