"""Draw labelled crops of numeral die faces in many fonts (development tool).

The training data of the numeral network (vision/numerals.py): a crop of
`vision.numerals.CROP_PX` grey pixels around a die, upright (its numeral's
up is the crop's up, within `UPRIGHT_DEG`), labelled with the die's kind and
value, or `none`. A reader at the table turns the crop to find the numeral's
up (vision.numerals), so the network learns to answer only an upright
numeral: a numeral on its side, a pip face, a letter, a logo, a bone or the
felt are `none`.

What a face looks like is drawn from one `numpy.random.Generator`:

- the face's outline by kind (d6 a square with the cube's sides seen in
  perspective; d8 a triangle in the hexagon of its neighbours; d10 and d10t a
  kite with its neighbouring kites), each face its own shade; or, for
  `SOLID_SHARE` of the d8, d10 and d10t, the die drawn as a solid
  (`draw_solid`: an octahedron or a pentagonal trapezohedron tilted up to
  `SOLID_TILT_DEG` toward the camera, as product photos show dice from the
  front; its visible faces lit and shaded, each with its numeral printed in
  perspective, the read face's toward its apex);
- the numeral in a TrueType font (Pillow; any of hundreds: decorative,
  script, stencil, serif, sans), a 6 or 9 underlined or dotted or not, sized
  and placed as dice print them (a d10's numeral points to the kite's apex,
  sometimes small near the apex above a large symbol);
- what decorative dice add: a ring or an inner outline round the numeral, a
  symbol, leaves, strokes, letters scattered over the face, smaller numerals
  on the neighbouring faces, a stone or marbled body, engraved or outlined
  or metallic ink;
- light (a gradient, glare), the background (felt, wood, white), blur,
  noise and JPEG.

Pure numpy, OpenCV and Pillow (the `render` extra); never a runtime
dependency. The same seed gives the same crops.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.numerals import CLASSES, CROP_PX, NONE

SS = 3  # drawn at this many times the crop's size, then shrunk
C = CROP_PX * SS  # the canvas side
MIN_TEXT = 0.2  # a numeral is at least this share of the crop's side tall (smaller: unreadable
# at CROP_PX; the reader's scales bring a die's numeral to this size or more)
UPRIGHT_DEG = 15.0  # an answered numeral's up lies within this of the crop's up
SIDEWAYS_DEG = (40.0, 320.0)  # a numeral turned this far is `none`
NONE_SHARE = 0.4  # of the samples
TURNED_SHARE = 0.6  # of the `none` samples: a numeral die turned away from upright
LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZabdefghkmnpqrtwxyz&%#@?!"
SYMMETRIC = {("d8", 8)}  # a d8's 8 reads the same half turned, and its triangle looks alike


@dataclass(frozen=True)
class Face:
    kind: str
    main: np.ndarray  # (n, 2) the front face's polygon, canvas pixels, numeral up = -y
    neighbours: tuple[np.ndarray, ...]  # polygons of the faces round it
    text_xy: tuple[float, float]  # where the numeral's centre goes
    text_h: float  # the numeral's height
    text_w_max: float  # its widest


@lru_cache(maxsize=4096)
def _font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def text_mask(text: str, font_file: str, height: float) -> np.ndarray:
    """The text's ink (float32 0-1, tight box) drawn `height` px tall in the font."""
    from PIL import Image, ImageDraw

    size = max(6, int(round(height / 0.72)))
    font = _font(font_file, size)
    x0, y0, x1, y1 = font.getbbox(text)
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    img = Image.new("L", (w + 4, h + 4), 0)
    ImageDraw.Draw(img).text((2 - x0, 2 - y0), text, fill=255, font=font)
    m = np.asarray(img, np.float32) / 255.0
    ys, xs = np.nonzero(m > 0.05)
    if len(ys) == 0:
        return np.zeros((1, 1), np.float32)
    m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    if m.shape[0] > 0 and abs(m.shape[0] - height) > 1:
        k = height / m.shape[0]
        m = cv2.resize(m, (max(1, round(m.shape[1] * k)), max(1, round(height))), interpolation=cv2.INTER_AREA)
    return m


def with_mark(mask: np.ndarray, mark: str, rng: np.random.Generator) -> np.ndarray:
    """A 6 or 9 with its underline or dot below-right (how dice tell them apart)."""
    h, w = mask.shape
    t = max(2, int(round(h * rng.uniform(0.07, 0.12))))
    gap = max(1, int(round(h * rng.uniform(0.06, 0.14))))
    if mark == "line":
        out = np.zeros((h + gap + t, w), np.float32)
        out[:h] = mask
        cv2.rectangle(out, (int(w * 0.05), h + gap), (int(w * 0.95), h + gap + t - 1), 1.0, -1)
        return out
    r = max(2, int(round(t * 0.9)))
    out = np.zeros((h, w + gap + 2 * r), np.float32)
    out[:, :w] = mask
    cv2.circle(out, (w + gap + r, h - r - 1), r, 1.0, -1, cv2.LINE_AA)
    return out


def _rot(pts: np.ndarray, deg: float, about=(0.0, 0.0)) -> np.ndarray:
    a = math.radians(deg)
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return (pts - about) @ r.T + about


def _reflect(poly: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = (b - a) / (np.linalg.norm(b - a) + 1e-9)
    v = poly - a
    return a + 2 * (v @ d)[:, None] * d - v


def make_face(rng: np.random.Generator, kind: str, cx: float, cy: float) -> Face:
    """The front face and its neighbours of a die of `kind` centred near (cx, cy)."""
    if kind == "d6":
        f = rng.uniform(0.42, 0.78) * C
        sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * f / 2
        # the cube's sides seen in perspective: the top face's edges pushed out along v
        v = _rot(np.array([[rng.uniform(0, 0.3) * f, 0.0]]), rng.uniform(0, 360))[0]
        if rng.random() < 0.35:
            v = v * 0.1
        nb = []
        for i in range(4):
            a, b = sq[i], sq[(i + 1) % 4]
            out = np.array([(a + b)[1], -(a + b)[0]])  # not needed; normal below
            n = np.array([b[1] - a[1], a[0] - b[0]])
            n = n / np.linalg.norm(n)
            if n @ v > 0:
                nb.append(np.array([a, b, b + v, a + v]))
            del out
        main = sq
        text_xy = (0.0, 0.0)
        text_h = f * rng.uniform(0.34, 0.66)
        text_w = f * 0.8
    elif kind == "d8":
        h = rng.uniform(0.5, 0.85) * C
        side = h / (math.sqrt(3) / 2)
        tri = np.array([[0.0, -2 * h / 3], [side / 2, h / 3], [-side / 2, h / 3]])
        apex_down = rng.random() < 0.3
        if apex_down:
            tri = tri * [1, -1]
        bottom = -tri  # the face it lies on, seen through the outline: a hexagon
        nb = [np.array([tri[i], tri[(i + 1) % 3], bottom[(i + 2) % 3]]) for i in range(3)]
        nb += [np.array([tri[i], bottom[(i + 2) % 3], bottom[(i + 1) % 3]]) for i in range(3)]
        main = tri
        text_xy = (0.0, rng.uniform(-0.05, 0.08) * h * (-1 if apex_down else 1))
        text_h = h * rng.uniform(0.26, 0.42)
        text_w = side * 0.45
    else:  # d10, d10t: a kite whose apex is up
        hgt = rng.uniform(0.55, 0.95) * C
        wid = hgt * rng.uniform(0.55, 0.8)
        yw = rng.uniform(0.55, 0.7)  # the widest line, from the apex
        top = -hgt * yw
        kite = np.array([[0.0, top], [wid / 2, 0.0], [0.0, hgt * (1 - yw)], [-wid / 2, 0.0]])
        nb = [_reflect(kite, kite[i], kite[(i + 1) % 4]) for i in range(4)]
        main = kite
        text_xy = (0.0, rng.uniform(-0.12, 0.06) * hgt)
        two = kind == "d10t"
        text_h = hgt * (rng.uniform(0.18, 0.3) if two else rng.uniform(0.22, 0.4))
        text_w = wid * (0.78 if two else 0.5)
    off = np.array([cx, cy])
    return Face(kind, main + off, tuple(n + off for n in nb), (text_xy[0] + cx, text_xy[1] + cy),
                float(max(text_h, MIN_TEXT * C)), float(text_w))


def _noise(rng: np.random.Generator, shape, scale: float) -> np.ndarray:
    """Smooth noise in about [-1, 1] of feature size `scale` px."""
    h, w = shape
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    n = rng.standard_normal((sh, sw)).astype(np.float32)
    return cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC) / 1.5


def _background(rng: np.random.Generator) -> np.ndarray:
    kind = rng.choice(["felt", "wood", "white", "dark", "cloth"])
    if kind == "white":
        base = rng.uniform(200, 250)
    elif kind == "dark":
        base = rng.uniform(15, 70)
    else:
        base = rng.uniform(40, 200)
    img = np.full((C, C), base, np.float32)
    if kind == "felt":
        img += rng.standard_normal((C, C)).astype(np.float32) * rng.uniform(2, 8)
    elif kind == "wood":
        t = _rot(np.stack(np.meshgrid(np.arange(C), np.arange(C)), -1).reshape(-1, 2).astype(float),
                 rng.uniform(0, 180))[:, 0].reshape(C, C)
        img += (np.sin(t / rng.uniform(3, 12)) * rng.uniform(5, 25)).astype(np.float32)
        img += _noise(rng, (C, C), 20) * 10
    elif kind == "cloth":
        img += _noise(rng, (C, C), rng.uniform(4, 30)) * rng.uniform(10, 40)
    return img


def _fill(img: np.ndarray, poly: np.ndarray, value) -> None:
    cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], value, cv2.LINE_AA, 4)


def _poly_mask(poly: np.ndarray) -> np.ndarray:
    m = np.zeros((C, C), np.float32)
    _fill(m, poly, 1.0)
    return m


def _paste(img: np.ndarray, mask: np.ndarray, xy, level, angle: float = 0.0,
           squash: float = 1.0, alpha: float = 1.0) -> np.ndarray:
    """Blend `level` into img through `mask` centred at xy, turned by angle
    (degrees, counter-clockwise); returns the placed mask (canvas)."""
    h, w = mask.shape
    big = int(math.ceil(math.hypot(h, w))) + 4
    pad = np.zeros((big, big), np.float32)
    y0, x0 = (big - h) // 2, (big - w) // 2
    pad[y0:y0 + h, x0:x0 + w] = mask
    m = cv2.getRotationMatrix2D((big / 2, big / 2), angle, 1.0)
    if squash != 1.0:
        m = np.vstack([m, [0, 0, 1]])
        s = np.array([[1, 0, 0], [0, squash, big / 2 * (1 - squash)], [0, 0, 1]])
        m = (s @ m)[:2]
    m[0, 2] += xy[0] - big / 2
    m[1, 2] += xy[1] - big / 2
    placed = cv2.warpAffine(pad, m, (C, C), flags=cv2.INTER_LINEAR) * alpha
    if isinstance(level, np.ndarray):
        img[:] = img * (1 - placed) + level * placed
    else:
        img[:] = img * (1 - placed) + float(level) * placed
    return placed


def _symbol(rng: np.random.Generator, r: float) -> np.ndarray:
    """A decorative symbol (cog, star, ringed dot, leaf, logo-ish), ink mask."""
    s = int(2 * r + 6)
    m = np.zeros((s, s), np.float32)
    c = (s // 2, s // 2)
    t = max(1, int(r * rng.uniform(0.08, 0.18)))
    kind = rng.integers(5)
    if kind == 0:  # a cog: ring and spokes
        cv2.circle(m, c, int(r * 0.45), 1.0, t, cv2.LINE_AA)
        cv2.circle(m, c, int(r * 0.18), 1.0, -1, cv2.LINE_AA)
        n = int(rng.integers(5, 10))
        for i in range(n):
            a = 2 * math.pi * i / n
            p1 = (int(c[0] + r * 0.45 * math.cos(a)), int(c[1] + r * 0.45 * math.sin(a)))
            p2 = (int(c[0] + r * 0.9 * math.cos(a)), int(c[1] + r * 0.9 * math.sin(a)))
            cv2.line(m, p1, p2, 1.0, t, cv2.LINE_AA)
    elif kind == 1:  # a star
        n = int(rng.integers(4, 8))
        pts = [(c[0] + (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / n - math.pi / 2),
                c[1] + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / n - math.pi / 2))
               for i in range(2 * n)]
        poly = np.round(np.array(pts) * 16).astype(np.int32)
        if rng.random() < 0.5:
            cv2.fillPoly(m, [poly], 1.0, cv2.LINE_AA, 4)
        else:
            cv2.polylines(m, [poly], True, 1.0, t, cv2.LINE_AA, 4)
    elif kind == 2:  # rings
        for k in range(int(rng.integers(1, 4))):
            cv2.circle(m, c, max(1, int(r * (0.9 - 0.3 * k))), 1.0, t, cv2.LINE_AA)
        cv2.circle(m, c, max(1, int(r * 0.12)), 1.0, -1, cv2.LINE_AA)
    elif kind == 3:  # leaves
        for _ in range(int(rng.integers(2, 6))):
            a = rng.uniform(0, 180)
            ctr = (int(c[0] + rng.uniform(-0.4, 0.4) * r), int(c[1] + rng.uniform(-0.4, 0.4) * r))
            cv2.ellipse(m, ctr, (int(r * 0.45), int(r * 0.18)), a, 0, 360, 1.0, -1, cv2.LINE_AA)
    else:  # brackets and a drop (a logo)
        cv2.ellipse(m, c, (int(r * 0.9), int(r * 0.9)), 0, 30, 150, 1.0, t, cv2.LINE_AA)
        cv2.ellipse(m, c, (int(r * 0.9), int(r * 0.9)), 0, 210, 330, 1.0, t, cv2.LINE_AA)
        cv2.circle(m, c, int(r * 0.3), 1.0, t, cv2.LINE_AA)
    return m


def _strokes(rng: np.random.Generator, img: np.ndarray, region: np.ndarray, level: float, n: int,
             width: float) -> None:
    ys, xs = np.nonzero(region > 0.5)
    if len(xs) == 0:
        return
    layer = np.zeros((C, C), np.float32)
    for _ in range(n):
        i = rng.integers(len(xs))
        p = np.array([xs[i], ys[i]], float)
        pts = [p]
        a = rng.uniform(0, 2 * math.pi)
        for _ in range(int(rng.integers(3, 9))):
            a += rng.uniform(-1.2, 1.2)
            p = p + rng.uniform(3, 10) * SS * np.array([math.cos(a), math.sin(a)])
            pts.append(p)
        cv2.polylines(layer, [np.round(np.array(pts) * 16).astype(np.int32)], False, 1.0,
                      max(1, int(width)), cv2.LINE_AA, 4)
    layer *= region
    img[:] = img * (1 - layer) + level * layer


def _ink_level(rng: np.random.Generator, body: float) -> float:
    """An ink that stands out of the body, either way."""
    for _ in range(20):
        ink = rng.uniform(0, 255)
        if abs(ink - body) >= rng.uniform(55, 110):
            return ink
    return 255.0 - body


def draw_die(rng: np.random.Generator, kind: str, value: int, font: str, clutter_font: str,
             glyph: str | None = None) -> np.ndarray:
    """The canvas (float32 grey, C x C) with one die, its numeral upright
    (`glyph`: "letter" or "symbol" in the numeral's place: a logo face)."""
    img = _background(rng)
    cx, cy = C / 2 + rng.uniform(-0.07, 0.07) * C, C / 2 + rng.uniform(-0.07, 0.07) * C
    face = make_face(rng, kind, cx, cy)
    body = rng.uniform(10, 245)
    ink = _ink_level(rng, body)
    # shadow on the background
    if rng.random() < 0.6:
        sh = np.zeros((C, C), np.float32)
        d = rng.uniform(0, 0.08) * C
        a = rng.uniform(0, 2 * math.pi)
        for poly in (face.main, *face.neighbours):
            _fill(sh, poly + [d * math.cos(a), d * math.sin(a)], 1.0)
        sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(2, 8) * SS / 3)
        img *= 1 - sh * rng.uniform(0.2, 0.6)
    # the body: each neighbour its own shade, the front face lit
    texture = np.zeros((C, C), np.float32)
    style = rng.choice(["plain", "plain", "stone", "marble", "translucent"])
    if style == "stone":
        texture = rng.standard_normal((C, C)).astype(np.float32) * rng.uniform(8, 30)
        texture = cv2.GaussianBlur(texture, (0, 0), SS * 0.7)
    elif style == "marble":
        texture = _noise(rng, (C, C), rng.uniform(6, 25) * SS) * rng.uniform(15, 45)
    for poly in face.neighbours:
        _fill(img, poly, float(np.clip(body * rng.uniform(0.55, 1.15) + rng.uniform(-15, 15), 0, 255)))
    main_mask = _poly_mask(face.main)
    _fill(img, face.main, float(body))
    die_mask = np.maximum(main_mask, sum((_poly_mask(p) for p in face.neighbours), np.zeros((C, C), np.float32)).clip(0, 1))
    img += texture * die_mask
    if style == "translucent":
        inner = cv2.GaussianBlur(main_mask, (0, 0), C * 0.06)
        img += (inner - main_mask * 0.5) * rng.uniform(-40, 40)
    # the edges: a thin darker or lighter line round faces
    if rng.random() < 0.6:
        edge = np.zeros((C, C), np.float32)
        for poly in (face.main, *face.neighbours):
            cv2.polylines(edge, [np.round(poly * 16).astype(np.int32)], True, 1.0, max(1, SS), cv2.LINE_AA, 4)
        img[:] = img * (1 - edge * 0.6) + edge * 0.6 * rng.uniform(0, 255)
    # decoration on the front face
    th = face.text_h
    tx, ty = face.text_xy
    small_top = kind in ("d10", "d8") and rng.random() < 0.12  # a small numeral above a big symbol
    if small_top:
        th = max(MIN_TEXT * C, th * rng.uniform(0.55, 0.75))
        ty = cy - (face.main[:, 1].max() - face.main[:, 1].min()) * rng.uniform(0.2, 0.32)
        _paste(img, _symbol(rng, face.text_w_max * rng.uniform(0.55, 0.8)), (cx, cy + th * 0.8),
               ink if rng.random() < 0.7 else _ink_level(rng, body))
    clear = np.ones((C, C), np.float32)  # clutter stays off the numeral
    cv2.ellipse(clear, (int(tx), int(ty)), (int(face.text_w_max * 0.6 + th * 0.2), int(th * 0.75)), 0, 0, 360, 0.0, -1)
    if rng.random() < 0.2:  # filigree over the body, a clear field round the numeral
        _strokes(rng, img, die_mask * clear, ink if rng.random() < 0.7 else _ink_level(rng, body),
                 int(rng.integers(15, 40)), rng.uniform(0.5, 1.5) * SS)
    if rng.random() < 0.2:  # letters of a script scattered over the face and its neighbours
        lvl = ink if rng.random() < 0.6 else _ink_level(rng, body)
        for _ in range(int(rng.integers(4, 18))):
            ch = LETTERS[rng.integers(len(LETTERS))]
            m = text_mask(ch, clutter_font, th * rng.uniform(0.2, 0.45))
            ys, xs = np.nonzero(die_mask > 0.5)
            i = rng.integers(len(xs))
            if clear[ys[i], xs[i]] < 0.5:
                continue
            _paste(img, m, (xs[i], ys[i]), lvl, rng.uniform(0, 360), alpha=rng.uniform(0.5, 1.0))
    if rng.random() < 0.2:
        _strokes(rng, img, die_mask * (clear if rng.random() < 0.95 else 1.0),
                 ink if rng.random() < 0.5 else _ink_level(rng, body), int(rng.integers(2, 8)),
                 rng.uniform(0.6, 2.0) * SS)
    if rng.random() < 0.15:  # leaves or flourishes at the face's corners
        for p in face.main:
            q = p + (np.array([cx, cy]) - p) * 0.25
            _paste(img, _symbol(rng, th * rng.uniform(0.2, 0.35)), q, ink, rng.uniform(0, 360),
                   alpha=rng.uniform(0.6, 1.0))
    if rng.random() < 0.25:  # a ring or an inner outline round the numeral
        ring = np.zeros((C, C), np.float32)
        t = max(1, int(rng.uniform(0.5, 1.5) * SS))
        if rng.random() < 0.5:
            r = th * rng.uniform(0.75, 1.0) * (1.4 if kind == "d10t" else 1.0)
            cv2.circle(ring, (int(tx), int(ty)), int(r), 1.0, t, cv2.LINE_AA)
        else:
            inner = (face.main - [cx, cy]) * rng.uniform(0.72, 0.88) + [cx, cy]
            cv2.polylines(ring, [np.round(inner * 16).astype(np.int32)], True, 1.0, t, cv2.LINE_AA, 4)
        img[:] = img * (1 - ring) + ink * ring
    # numerals on the neighbours, turned their way and foreshortened
    for poly in face.neighbours:
        if rng.random() < 0.55:
            c_n = poly.mean(axis=0)
            away = math.degrees(math.atan2(c_n[1] - cy, c_n[0] - cx))
            nv = _neighbour_text(kind, rng)
            m = text_mask(nv, font, th * rng.uniform(0.6, 1.0))
            _paste(img, m, c_n, ink, -(away + 90) + rng.uniform(-30, 30), squash=rng.uniform(0.4, 1.0))
    # the numeral
    text = numeral_text(kind, value)
    if glyph == "letter":
        text = LETTERS[rng.integers(len(LETTERS))]
    m = _symbol(rng, th * 0.6) if glyph == "symbol" else text_mask(text, font, th)
    k = min(1.0, max(face.text_w_max / m.shape[1], MIN_TEXT * C / m.shape[0]))
    if k < 1.0:  # too wide for the face: narrower, never below MIN_TEXT tall
        m = cv2.resize(m, (max(1, int(m.shape[1] * k)), max(1, int(m.shape[0] * k))), interpolation=cv2.INTER_AREA)
    if text in ("6", "9") and rng.random() < 0.75:
        m = with_mark(m, "line" if rng.random() < 0.6 else "dot", rng)
    effect = rng.random()
    if effect < 0.15:  # an outline in another colour
        o = cv2.dilate(np.pad(m, SS * 2), np.ones((2 * SS + 1, 2 * SS + 1), np.uint8))
        _paste(img, o, (tx, ty), _ink_level(rng, ink))
    elif effect < 0.35:  # engraved: a shadow beside the ink
        d = rng.uniform(0.5, 1.5) * SS
        _paste(img, m, (tx + d, ty + d), float(np.clip(body * 0.5, 0, 255)), alpha=0.7)
    if rng.random() < 0.2:  # worn or metallic ink
        lvl = ink + _noise(rng, (C, C), rng.uniform(2, 8) * SS) * rng.uniform(15, 45)
        _paste(img, m, (tx, ty), lvl)
    else:
        _paste(img, m, (tx, ty), ink)
    # light: a gradient and perhaps a glare
    gx, gy = np.meshgrid(np.linspace(-1, 1, C), np.linspace(-1, 1, C))
    a = rng.uniform(0, 2 * math.pi)
    img *= (1 + rng.uniform(0, 0.35) * (gx * math.cos(a) + gy * math.sin(a))).astype(np.float32)
    if rng.random() < 0.25:
        g = np.zeros((C, C), np.float32)
        ys, xs = np.nonzero(die_mask > 0.5)
        i = rng.integers(len(xs))
        cv2.ellipse(g, (int(xs[i]), int(ys[i])), (int(C * rng.uniform(0.03, 0.12)), int(C * rng.uniform(0.02, 0.08))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        g = cv2.GaussianBlur(g, (0, 0), C * 0.02) * die_mask * (0.4 + 0.6 * clear)
        img += g * rng.uniform(60, 200)
    return img


def numeral_text(kind: str, value: int) -> str:
    return f"{value // 10}0" if kind == "d10t" else str(value)


def _neighbour_text(kind: str, rng: np.random.Generator) -> str:
    if kind == "d10t":
        return f"{rng.integers(10)}0"
    return str(int(rng.integers(0 if kind == "d10" else 1, {"d6": 7, "d8": 9}.get(kind, 10))))


def _pip_face(rng: np.random.Generator) -> np.ndarray:
    img = _background(rng)
    f = rng.uniform(0.4, 0.8) * C
    cx, cy = C / 2 + rng.uniform(-0.07, 0.07) * C, C / 2 + rng.uniform(-0.07, 0.07) * C
    body = rng.uniform(10, 245)
    ink = _ink_level(rng, body)
    sq = _rot(np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * f / 2, rng.uniform(0, 90)) + [cx, cy]
    _fill(img, sq, float(body))
    v = int(rng.integers(1, 7))
    grid = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[v]
    r = f * rng.uniform(0.07, 0.12) * (1.6 if v == 1 and rng.random() < 0.5 else 1.0)
    for gx, gy in grid:
        cv2.circle(img, (int(cx + gx * f * 0.28), int(cy + gy * f * 0.28)), int(r), float(ink), -1, cv2.LINE_AA)
    return img


def _blob(rng: np.random.Generator) -> np.ndarray:
    """A bone, a pebble, a token: a shaded blob, no numeral."""
    img = _background(rng)
    n = int(rng.integers(6, 12))
    ang = np.sort(rng.uniform(0, 2 * math.pi, n))
    rad = rng.uniform(0.15, 0.4, n) * C
    pts = np.stack([C / 2 + rad * np.cos(ang), C / 2 + rad * np.sin(ang)], 1)
    body = rng.uniform(30, 240)
    _fill(img, pts, float(body))
    m = _poly_mask(pts)
    img += _noise(rng, (C, C), C / 6) * rng.uniform(10, 50) * m
    return img


def _token(rng: np.random.Generator, font: str) -> np.ndarray:
    """A round token or counter with a number on it (a board game's, a
    poker chip's): a numeral upright, but on no die's face."""
    img = _background(rng)
    cx, cy = C / 2 + rng.uniform(-0.07, 0.07) * C, C / 2 + rng.uniform(-0.07, 0.07) * C
    r = rng.uniform(0.22, 0.42) * C
    squash = rng.uniform(0.75, 1.0)  # seen at a slant
    tilt = rng.uniform(0, 180)
    body = rng.uniform(10, 245)
    ink = _ink_level(rng, body)
    if rng.random() < 0.5:  # a shadow
        sh = np.zeros((C, C), np.float32)
        cv2.ellipse(sh, (int(cx + rng.uniform(-0.05, 0.05) * C), int(cy + rng.uniform(0, 0.06) * C)),
                    (int(r), int(r * squash)), tilt, 0, 360, 1.0, -1)
        img *= 1 - cv2.GaussianBlur(sh, (0, 0), 2 * SS) * rng.uniform(0.2, 0.6)
    if rng.random() < 0.6:  # on a board's hexagonal tile, its own shade and texture
        n = 6
        tile = _rot(np.array([[math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)] for i in range(n)])
                    * r * rng.uniform(1.3, 2.6), rng.uniform(0, 360)) + [cx, cy] + rng.uniform(-0.3, 0.3, 2) * r
        shade = np.full((C, C), rng.uniform(20, 235), np.float32) + _noise(rng, (C, C), C / 12) * rng.uniform(10, 60)
        m = _poly_mask(tile)
        img[:] = img * (1 - m) + shade * m
        cv2.polylines(img, [np.round(tile * 16).astype(np.int32)], True, rng.uniform(0, 255),
                      max(1, int(rng.uniform(0.5, 2.5) * SS)), cv2.LINE_AA, 4)
    cv2.ellipse(img, (int(cx), int(cy)), (int(r), int(r * squash)), tilt, 0, 360, float(body), -1, cv2.LINE_AA)
    if rng.random() < 0.4:  # a rim
        cv2.ellipse(img, (int(cx), int(cy)), (int(r * 0.85), int(r * 0.85 * squash)), tilt, 0, 360,
                    _ink_level(rng, body), max(1, int(rng.uniform(0.5, 2) * SS)), cv2.LINE_AA)
    text = str(int(rng.integers(0, 13))) if rng.random() < 0.8 else f"{rng.integers(1, 10)}0"
    m = text_mask(text, font, r * rng.uniform(0.6, 0.95))
    k = min(1.0, 1.4 * r / m.shape[1])
    if k < 1.0:
        m = cv2.resize(m, (max(1, int(m.shape[1] * k)), max(1, int(m.shape[0] * k))), interpolation=cv2.INTER_AREA)
    _paste(img, m, (cx, cy - (0.1 * r if rng.random() < 0.5 else 0)), ink)
    if rng.random() < 0.5:  # the odds' dots under the number
        for i in range(int(rng.integers(1, 6))):
            cv2.circle(img, (int(cx + (i - 2) * 0.12 * r), int(cy + 0.6 * r)), max(1, int(0.05 * r)),
                       float(ink), -1, cv2.LINE_AA)
    return img


def _letter_face(rng: np.random.Generator, font: str) -> np.ndarray:
    """A die face showing a letter or logo instead of a numeral."""
    kind = str(rng.choice(["d6", "d8", "d10", "d10t"]))
    return draw_die(rng, kind, 1 if kind != "d10t" else 10, font, font,
                    glyph="letter" if rng.random() < 0.6 else "symbol")


def finish(rng: np.random.Generator, img: np.ndarray, angle: float) -> np.ndarray:
    """Turn, shrink to CROP_PX, blur, noise, JPEG: the crop as uint8."""
    m = cv2.getRotationMatrix2D((C / 2, C / 2), angle, rng.uniform(0.92, 1.08))
    m[:, 2] += rng.uniform(-0.04, 0.04, 2) * C
    if rng.random() < 0.5:  # a little perspective
        src = np.float32([[0, 0], [C, 0], [C, C], [0, C]])
        dst = src + rng.uniform(-0.05, 0.05, (4, 2)).astype(np.float32) * C
        h = cv2.getPerspectiveTransform(src, dst) @ np.vstack([m, [0, 0, 1]])
        img = cv2.warpPerspective(img, h, (C, C), borderMode=cv2.BORDER_REFLECT)
    else:
        img = cv2.warpAffine(img, m, (C, C), borderMode=cv2.BORDER_REFLECT)
    out = cv2.resize(img, (CROP_PX, CROP_PX), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.6:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.1))
    out = out * rng.uniform(0.7, 1.15) + rng.uniform(-25, 25)
    out += rng.standard_normal(out.shape).astype(np.float32) * rng.uniform(0, 7)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    return out


def _draw(rng: np.random.Generator, kind: str, value: int, font: str, clutter: str) -> np.ndarray:
    """A numeral die's canvas: seen from above (`draw_die`) or, SOLID_SHARE of
    the d8, d10 and d10t, as a solid at a slant (`draw_solid`)."""
    if kind != "d6" and rng.random() < SOLID_SHARE:
        return draw_solid(rng, kind, value, font)
    return draw_die(rng, kind, value, font, clutter)


def sample(rng: np.random.Generator, fonts: list[str]) -> tuple[np.ndarray, int]:
    """One labelled crop: (CROP_PX x CROP_PX uint8 grey, class index of CLASSES)."""
    font = fonts[rng.integers(len(fonts))]
    clutter = fonts[rng.integers(len(fonts))]
    r = rng.random()
    if r >= NONE_SHARE:
        cls = int(rng.integers(1, len(CLASSES)))
        kind, value = CLASSES[cls]
        img = _draw(rng, kind, value, font, clutter)
        return finish(rng, img, rng.uniform(-UPRIGHT_DEG, UPRIGHT_DEG)), cls
    none = CLASSES.index((NONE, 0))
    r /= NONE_SHARE
    if r < TURNED_SHARE:  # a numeral die turned away from upright
        cls = int(rng.integers(1, len(CLASSES)))
        kind, value = CLASSES[cls]
        angle = rng.uniform(*SIDEWAYS_DEG)
        if (kind, value) in SYMMETRIC and abs(angle - 180) < 45:
            angle = 90.0
        img = _draw(rng, kind, value, font, clutter)
        return finish(rng, img, angle), none
    if r < TURNED_SHARE + 0.12:
        return finish(rng, _pip_face(rng), rng.uniform(0, 360)), none
    if r < TURNED_SHARE + 0.24:
        return finish(rng, _letter_face(rng, font), rng.uniform(-UPRIGHT_DEG, UPRIGHT_DEG)), none
    if r < TURNED_SHARE + 0.3:
        return finish(rng, _token(rng, font), rng.uniform(-UPRIGHT_DEG, UPRIGHT_DEG)), none
    if r < TURNED_SHARE + 0.35:
        return finish(rng, _blob(rng), rng.uniform(0, 360)), none
    return finish(rng, _background(rng), 0.0), none


def token_sample(rng: np.random.Generator, fonts: list[str]) -> tuple[np.ndarray, int]:
    """One round number token (`none`), upright as a numeral would be."""
    font = fonts[rng.integers(len(fonts))]
    return finish(rng, _token(rng, font), rng.uniform(-UPRIGHT_DEG, UPRIGHT_DEG)), CLASSES.index((NONE, 0))


def batch(seed: int, n: int, fonts: list[str], tokens: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """n samples from seed: images (n, CROP_PX, CROP_PX) uint8 and labels (n,) int16
    (`tokens`: round number tokens only, a set of hard `none`s)."""
    rng = np.random.default_rng(seed)
    xs = np.zeros((n, CROP_PX, CROP_PX), np.uint8)
    ys = np.zeros(n, np.int16)
    draw = token_sample if tokens else sample
    for i in range(n):
        xs[i], ys[i] = draw(rng, fonts)
    return xs, ys


# ----------------------------------------------------------------------------- solids at a slant

SOLID_SHARE = 0.3  # of the d8, d10 and d10t crops: the die drawn as a solid seen at a slant
SOLID_TILT_DEG = (-10.0, 40.0)  # the front face turned back (its top away) by this much ...
SOLID_YAW_DEG = 25.0  # ... and sideways by up to this: a die photographed close, from the side
SOLID_MIN_TEXT = 0.14  # a slanted die's numeral is at least this share of the crop's side tall


def _solid(kind: str, rng: np.random.Generator) -> tuple[np.ndarray, list[tuple[int, ...]], int]:
    """Vertices (n, 3), faces (vertex indices, counter-clockwise seen from
    outside) and the index of the front face's apex vertex: a d8's
    octahedron, or a d10's pentagonal trapezohedron (upper face 0 in front)."""
    if kind == "d8":
        v = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1]], float)
        faces = [(a, b, c) for a in (0, 3) for b in (1, 4) for c in (2, 5)]
        return v, _outward(v, faces), int(rng.choice([0, 1, 2]))
    z0 = rng.uniform(0.1, 0.15)  # kites 0.63-0.79 as wide as long
    c36 = math.cos(math.radians(36))
    h = z0 * (1 + c36) / (1 - c36)  # the pole's height that keeps each kite flat
    up = [(math.cos(math.radians(72 * i)), math.sin(math.radians(72 * i)), z0) for i in range(5)]
    low = [(math.cos(math.radians(72 * i + 36)), math.sin(math.radians(72 * i + 36)), -z0) for i in range(5)]
    v = np.array([(0, 0, h), (0, 0, -h), *up, *low], float)  # 0 top, 1 bottom, 2-6 upper ring, 7-11 lower
    faces = []
    for i in range(5):
        faces.append((0, 2 + i, 7 + i, 2 + (i + 1) % 5))
        faces.append((1, 7 + (i + 1) % 5, 2 + (i + 1) % 5, 7 + i))
    return v, _outward(v, faces), 0


def _outward(v: np.ndarray, faces: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Each face's vertices ordered counter-clockwise seen from outside."""
    return [f if np.dot(np.cross(v[f[1]] - v[f[0]], v[f[2]] - v[f[0]]), v[list(f)].sum(0)) > 0
            else f[::-1] for f in faces]


def _face_frame(v: np.ndarray, face: tuple[int, ...], apex: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A face's centre, outward normal and up (in its plane, towards `apex`)."""
    p = v[list(face)]
    centre = p.mean(axis=0)
    n = np.cross(p[1] - p[0], p[2] - p[0])
    n /= np.linalg.norm(n)
    u = v[apex] - centre
    u -= n * (u @ n)
    return centre, n, u / np.linalg.norm(u)


def draw_solid(rng: np.random.Generator, kind: str, value: int, font: str) -> np.ndarray:
    """The canvas (float32 grey, C x C) with a d8, d10 or d10t drawn as a
    solid, its front face (numeral upright) turned back and sideways from the
    camera: the lit faces round it, the lower half's faces below, the
    numerals of the faces beside it, perhaps a small numeral above a symbol
    (as decorative d10s print it)."""
    img = _background(rng)
    v, faces, apex = _solid(kind, rng)
    front = faces[0] if kind != "d8" else next(f for f in faces if apex in f)
    centre, n, u = _face_frame(v, front, apex)
    if kind == "d8" and rng.random() < 0.3:  # a numeral pointing at an edge
        u = -u
    base = np.stack([np.cross(u, n), u, n])  # rows: right, up, towards the camera
    yaw = math.radians(rng.uniform(-SOLID_YAW_DEG, SOLID_YAW_DEG))  # turned right about the up axis ...
    tilt = math.radians(rng.uniform(*SOLID_TILT_DEG))  # ... after its top was turned back
    rot = cv2.Rodrigues(np.array([0.0, -yaw, 0.0]))[0] @ cv2.Rodrigues(np.array([-tilt, 0.0, 0.0]))[0] @ base
    w = (v - centre * 0.3) @ rot.T  # the die in camera axes, x right, y up, z towards the camera
    dist = rng.uniform(4, 12)  # the camera's distance, in the die's radii: a little perspective

    def project(p: np.ndarray) -> np.ndarray:
        k = dist / (dist - p[..., 2])
        return np.stack([p[..., 0] * k, -p[..., 1] * k], -1)

    text = numeral_text(kind, value)
    share = (rng.uniform(0.18, 0.3) if kind == "d10t" else rng.uniform(0.22, 0.4)) if kind != "d8" \
        else rng.uniform(0.26, 0.42)
    small_top = kind != "d8" and rng.random() < 0.2  # a small numeral near the apex, a symbol below
    fv = v[list(front)] - centre
    f_h = float((fv @ u).max() - (fv @ u).min())  # the front face's height, along its up
    pts = project(w)
    vis = [f for f in faces if (np.cross(w[f[1]] - w[f[0]], w[f[2]] - w[f[0]]))[2] > 0]
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
    scale = rng.uniform(0.5, 1.25) * C / math.sqrt(max(cv2.contourArea(hull), 1e-6))
    scale = max(scale, SOLID_MIN_TEXT * C / (f_h * share * (0.6 if small_top else 1.0)))
    off = np.array([C / 2, C / 2]) + rng.uniform(-0.07, 0.07, 2) * C
    pts = pts * scale + off
    body = rng.uniform(10, 245)
    ink = _ink_level(rng, body)
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.2, 0.8), 1.0])
    light /= np.linalg.norm(light)
    if rng.random() < 0.6:  # a shadow on the background
        sh = np.zeros((C, C), np.float32)
        _fill(sh, cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2) + rng.uniform(-0.06, 0.06, 2) * C, 1.0)
        img *= 1 - cv2.GaussianBlur(sh, (0, 0), rng.uniform(2, 8) * SS / 3) * rng.uniform(0.2, 0.6)
    die_mask = np.zeros((C, C), np.float32)
    edge_level = rng.uniform(0, 255) if rng.random() < 0.6 else None
    for f in vis:
        nf = np.cross(w[f[1]] - w[f[0]], w[f[2]] - w[f[0]])
        lit = 0.45 + 0.55 * max(0.0, float(nf @ light / np.linalg.norm(nf)))
        _fill(img, pts[list(f)], float(np.clip(body * lit * rng.uniform(0.9, 1.1), 0, 255)))
        _fill(die_mask, pts[list(f)], 1.0)
    style = rng.choice(["plain", "plain", "stone", "marble"])
    if style == "stone":
        img += cv2.GaussianBlur(rng.standard_normal((C, C)).astype(np.float32), (0, 0), SS * 0.7) \
            * rng.uniform(8, 30) * die_mask
    elif style == "marble":
        img += _noise(rng, (C, C), rng.uniform(6, 25) * SS) * rng.uniform(15, 45) * die_mask
    if edge_level is not None:
        edge = np.zeros((C, C), np.float32)
        for f in vis:
            cv2.polylines(edge, [np.round(pts[list(f)] * 16).astype(np.int32)], True, 1.0, max(1, SS),
                          cv2.LINE_AA, 4)
        img[:] = img * (1 - edge * 0.6) + edge * 0.6 * edge_level

    def on_face(f: tuple[int, ...], u3: np.ndarray, mask: np.ndarray, y_share: float, h_share: float,
                level: float) -> np.ndarray:
        """`mask` (ink) printed on face f, upright along u3 (in its plane), its
        centre y_share of the face's height above the face's centre, h_share of it tall."""
        c3, n3, _ = _face_frame(v, f, f[0])
        r3 = np.cross(u3, n3)
        fp = v[list(f)] - c3
        fh = float((fp @ u3).max() - (fp @ u3).min())
        mh, mw = mask.shape
        k = fh * h_share / mh  # die units per mask pixel
        ctr = c3 + u3 * fh * y_share
        src = np.float32([[0, 0], [mw, 0], [mw, mh], [0, mh]])
        corners = [ctr + (x - mw / 2) * k * r3 - (y - mh / 2) * k * u3 for x, y in src]
        dst = project((np.array(corners) - centre * 0.3) @ rot.T) * scale + off
        hm = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        placed = cv2.warpPerspective(mask, hm, (C, C), flags=cv2.INTER_LINEAR) * _poly_mask(pts[list(f)])
        img[:] = img * (1 - placed) + level * placed
        return placed

    px = 4 * CROP_PX  # the masks' pixels per numeral height (drawn, then warped)
    for f in vis:  # the numerals of the faces beside the front one, each upright towards its pole
        if f is not front and rng.random() < (0.4 if kind == "d8" else 0.5):
            f_apex = f[0] if kind == "d8" else (0 if 0 in f else 1)
            on_face(f, _face_frame(v, f, f_apex)[2], text_mask(_neighbour_text(kind, rng), font, px), 0.0, share, ink)
    m = text_mask(text, font, px)
    if text in ("6", "9") and rng.random() < 0.75:
        m = with_mark(m, "line" if rng.random() < 0.6 else "dot", rng)
    wide = m.shape[1] / m.shape[0]  # a numeral wider than the face can hold is drawn lower
    h_share = share if kind == "d8" else min(share, (0.78 if kind == "d10t" else 0.5) * 0.62 / max(wide, 1e-3))
    if small_top:
        h_share *= rng.uniform(0.55, 0.75)
        on_face(front, u, _symbol(rng, px), -0.15, h_share * 1.8, ink if rng.random() < 0.7
                else _ink_level(rng, body))
        on_face(front, u, m, 0.22, h_share, ink)
    else:
        if rng.random() < 0.2:  # a ring round the numeral
            ring = np.zeros((px * 3, px * 3), np.float32)
            cv2.circle(ring, (px * 3 // 2, px * 3 // 2), int(px * rng.uniform(0.75, 1.2)), 1.0,
                       max(1, int(px * 0.06)), cv2.LINE_AA)
            on_face(front, u, ring, 0.0, h_share * 3, ink)
        on_face(front, u, m, rng.uniform(-0.08, 0.05), h_share, ink)
    if rng.random() < 0.2:  # filigree over the body
        clear = cv2.dilate((die_mask > 0.5).astype(np.uint8), np.ones((3, 3), np.uint8))
        _strokes(rng, img, clear.astype(np.float32) * (1 - _poly_mask(pts[list(front)]) * 0.999),
                 ink if rng.random() < 0.7 else _ink_level(rng, body), int(rng.integers(10, 30)),
                 rng.uniform(0.5, 1.5) * SS)
    gx, gy = np.meshgrid(np.linspace(-1, 1, C), np.linspace(-1, 1, C))
    a = rng.uniform(0, 2 * math.pi)
    img *= (1 + rng.uniform(0, 0.35) * (gx * math.cos(a) + gy * math.sin(a))).astype(np.float32)
    if rng.random() < 0.25:  # a glare
        g = np.zeros((C, C), np.float32)
        ys, xs = np.nonzero(die_mask > 0.5)
        i = rng.integers(len(xs))
        cv2.ellipse(g, (int(xs[i]), int(ys[i])), (int(C * rng.uniform(0.03, 0.12)), int(C * rng.uniform(0.02, 0.08))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        img += cv2.GaussianBlur(g, (0, 0), C * 0.02) * die_mask * rng.uniform(60, 200)
    return img
