#!/usr/bin/env python3
"""Write a labelled data set (FORMATS.md section 1) of rendered taba scenes.

    python scripts/render_tabas.py --out DIR --count N --seed S [--size WxH] [--per-scene 1-5]

Each scene: NAME.jpg + NAME.json with {"dice": [{"kind": "taba", "value":
face, "colour": ..., "center": [x, y]}, ...], "unreadable": [{"center", "why"}]}
("on end", "cocked", "occluded"). Rendered from the 3D scan in
../shared/taba3d (read there, never copied); a development tool only.
Deterministic: the same arguments give the same files.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.taba_model import DEFAULT_PLY, load_model, load_poses  # noqa: E402
from calibration.taba_render import random_scene  # noqa: E402


def _range(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    a, b = int(lo), int(hi or lo)
    if not 1 <= a <= b <= 5:
        raise argparse.ArgumentTypeError("per-scene must be N or A-B within 1-5")
    return a, b


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def _frange(text: str) -> tuple[float, float]:
    lo, _, hi = text.partition("-")
    return float(lo), float(hi or lo)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Render a labelled data set of taba scenes.")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=_size, default=(1600, 1200), help="WxH (default 1600x1200)")
    ap.add_argument("--per-scene", type=_range, default=(1, 5), help="tabas per scene: N or A-B (1-5)")
    ap.add_argument("--length-px", type=_frange, default=(60.0, 110.0),
                    help="taba length in pixels, A-B (default 60-110: a 2 MP frame at 40-60 cm)")
    ap.add_argument("--quality", type=int, default=90, help="JPEG quality")
    ap.add_argument("--ply", default=str(DEFAULT_PLY))
    ap.add_argument("--prefix", default="taba")
    ap.add_argument("--unreadable", type=_frange, default=None, metavar="END-COCKED",
                    help="chances that a taba stands on an end and leans on another "
                         "(default 0.06-0.08; more for training the refusals)")
    args = ap.parse_args(argv)
    model = load_model(args.ply)
    poses = load_poses(args.ply)
    args.out.mkdir(parents=True, exist_ok=True)
    w, h = args.size
    t0 = time.time()
    for i in range(args.count):
        rng = np.random.default_rng([args.seed, i])
        n = int(rng.integers(args.per_scene[0], args.per_scene[1] + 1))
        odds = {} if args.unreadable is None else {"p_end": args.unreadable[0], "p_cocked": args.unreadable[1]}
        scene = random_scene(rng, w, h, n, length_px=args.length_px, model=model, poses=poses, **odds)
        name = f"{args.prefix}_{args.seed}_{i:05d}"
        ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
        if not ok:
            raise SystemExit("JPEG encoding failed")
        (args.out / f"{name}.jpg").write_bytes(buf.tobytes())
        (args.out / f"{name}.json").write_text(json.dumps(scene.labels) + "\n", encoding="utf-8")
    print(f"{args.count} scenes in {time.time() - t0:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
