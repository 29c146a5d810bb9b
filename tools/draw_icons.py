"""Draw the browser game's icons (the web app manifest's, docs/serve.md): two cards fanned on
the felt, the front one showing a castle. One drawing, as polygons, written out as SVG and
painted into PNGs with Pillow (at four times the size, then scaled down: smooth edges).

    python tools/draw_icons.py                  # into python/castle/serve/page/
    python tools/draw_icons.py --out DIR

tests/serve/test_app.py draws them again and compares: the icons in the page are this drawing.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

PAGE = Path(__file__).resolve().parent.parent / "python" / "castle" / "serve" / "page"

#: The drawing's own units: a square of this side.
SIDE = 512
FELT = "#1d5b3a"
BACK = "#1e4f8f"
CARD = "#fffdf7"
EDGE = "#b9b3a2"
INK = "#c62828"

Point = tuple[float, float]
#: A shape: its fill and its outline's points.
Shape = tuple[str, list[Point]]


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> list[Point]:
    """The outline of a rectangle with corners of radius ``r``, clockwise from the top left."""
    corners = [(x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90)]
    corners.append((x + r, y + r, 180))
    points: list[Point] = []
    for cx, cy, start in corners:
        for step in range(7):
            a = math.radians(start + 15 * step)
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def turned(points: Sequence[Point], degrees: float, about: Point) -> list[Point]:
    a = math.radians(degrees)
    cx, cy = about
    return [
        (
            cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a),
            cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a),
        )
        for x, y in points
    ]


def castle(x: float, y: float, w: float, h: float) -> list[Point]:
    """A castle's outline in the box (x, y, w, h): three towers, battlements, a gate."""

    def at(u: float, v: float) -> Point:
        return (x + u * w, y + v * h)

    outline = [
        (0.0, 1.0),
        (0.0, 0.0),
        (0.1, 0.0),
        (0.1, 0.1),
        (0.2, 0.1),
        (0.2, 0.0),
        (0.3, 0.0),
        (0.3, 0.34),
        (0.37, 0.34),
        (0.37, 0.26),
        (0.46, 0.26),
        (0.46, 0.34),
        (0.54, 0.34),
        (0.54, 0.26),
        (0.63, 0.26),
        (0.63, 0.34),
        (0.7, 0.34),
        (0.7, 0.0),
        (0.8, 0.0),
        (0.8, 0.1),
        (0.9, 0.1),
        (0.9, 0.0),
        (1.0, 0.0),
        (1.0, 1.0),
        # The gate: an arch cut up into the wall from the bottom.
        (0.64, 1.0),
        (0.64, 0.72),
        *(
            (0.5 + 0.14 * math.cos(math.radians(a)), 0.72 - 0.14 * math.sin(math.radians(a)))
            for a in range(0, 181, 15)
        ),
        (0.36, 0.72),
        (0.36, 1.0),
    ]
    return [at(u, v) for u, v in outline]


def shapes(maskable: bool) -> list[Shape]:
    """The drawing, back to front. ``maskable``: the felt fills the square (the launcher cuts
    it to its own shape; the cards stand inside the middle 80%); else a rounded tile."""
    felt = [(0.0, 0.0), (SIDE, 0.0), (SIDE, SIDE), (0.0, SIDE)]
    out: list[Shape] = [(FELT, felt if maskable else rounded_rect(0, 0, SIDE, SIDE, 96))]
    scale = 0.9 if maskable else 1.0
    w, h = 232 * scale, 325 * scale
    middle = (SIDE / 2, SIDE / 2)
    x, y = SIDE / 2 - w / 2, SIDE / 2 - h / 2
    card = rounded_rect(x, y, w, h, 22 * scale)
    edge = rounded_rect(x - 4, y - 4, w + 8, h + 8, 26 * scale)
    out.append((EDGE, turned(edge, -14, (middle[0] - 40 * scale, middle[1]))))
    out.append((BACK, turned(card, -14, (middle[0] - 40 * scale, middle[1]))))
    out.append((EDGE, turned(edge, 8, (middle[0] + 30 * scale, middle[1]))))
    out.append((CARD, turned(card, 8, (middle[0] + 30 * scale, middle[1]))))
    keep = castle(x + w * 0.18, y + h * 0.3, w * 0.64, h * 0.42)
    out.append((INK, turned(keep, 8, (middle[0] + 30 * scale, middle[1]))))
    return out


def svg(drawing: list[Shape]) -> str:
    polygons = "\n".join(
        f'<polygon fill="{fill}" points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}"/>'
        for fill, points in drawing
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIDE} {SIDE}">\n'
        f"{polygons}\n</svg>\n"
    )


def png(drawing: list[Shape], size: int) -> Image.Image:
    big = size * 4
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    k = big / SIDE
    for fill, points in drawing:
        pen.polygon([(x * k, y * k) for x, y in points], fill=fill)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def draw(out: Path) -> list[Path]:
    """Write the icons into ``out``; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "icon.svg"]
    written[0].write_text(svg(shapes(maskable=False)), encoding="utf-8")
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        png(shapes(maskable), size).save(out / name, optimize=True)
        written.append(out / name)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=PAGE, help="where to write them")
    for path in draw(parser.parse_args().out):
        print(f"{path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
