#!/usr/bin/env python3
"""Write a labelled data set of generated scenes (FORMATS.md section 1).

    python scripts/make_scenes.py --out DIR --count N --seed S [--size 1600x1200] [--kinds d6]

Scene i is drawn from seed S * 1000 + i and shows off theme i modulo the theme
list (felt, touching, cocked, stacked, outside, glare, blur, casino, ...), so a
run of at least that many scenes covers every feature; `--themes cocked,stacked`
takes only those themes in turn (more training scenes of one feature).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.synth import make_scene  # noqa: E402
from calibration.synth_spec import EXTRA_THEMES, KINDS, THEMES  # noqa: E402

SEED_STRIDE = 1000  # scene seeds of two runs with nearby --seed do not collide


def parse_size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--count", required=True, type=int)
    ap.add_argument("--seed", required=True, type=int)
    ap.add_argument("--size", default="1600x1200", type=parse_size, help="WxH pixels")
    ap.add_argument("--kinds", default="d6", help="comma-separated: " + ",".join(KINDS))
    ap.add_argument("--fonts", nargs="*", type=Path, default=[],
                    help="TrueType files (or folders of them) for the numerals (needs Pillow: "
                         "pip install .[render]); default Hershey simplex")
    ap.add_argument("--every-face", action="store_true",
                    help="each readable die shows the next face of its kind in turn over the run "
                         "(a teaching set: every face seen); the scenes are otherwise the seed's")
    ap.add_argument("--d6-numerals", action="store_true",
                    help="each d6 shows its value as a numeral (in one of --fonts, if given), not pips")
    ap.add_argument("--prefix", default="scene", help="file names PREFIX_NNN_THEME (default scene)")
    ap.add_argument("--quality", default=90, type=int, help="JPEG quality of the written files")
    ap.add_argument("--themes", default="", help="comma-separated, only these themes in turn (default: "
                    "every theme: " + ",".join(THEMES) + "; also: " + ",".join(EXTRA_THEMES) + ")")
    args = ap.parse_args(argv)
    themes = tuple(t.strip() for t in args.themes.split(",") if t.strip()) or THEMES
    bad = set(themes) - set(THEMES) - set(EXTRA_THEMES)
    if bad:
        ap.error(f"unknown themes: {', '.join(sorted(bad))}")
    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    unknown = set(kinds) - set(KINDS)
    if unknown:
        ap.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    fonts = tuple(str(f) for p in args.fonts
                  for f in (sorted(p.rglob("*.ttf")) if p.is_dir() else [p]))
    missing = [f for f in fonts if not Path(f).is_file()]
    if missing or (args.fonts and not fonts):
        ap.error(f"no such font file: {', '.join(missing) or ' '.join(map(str, args.fonts))}")
    args.out.mkdir(parents=True, exist_ok=True)
    turn: dict[str, int] | None = {} if args.every_face else None
    for i in range(args.count):
        theme = themes[i % len(themes)]
        image_bgr, label = make_scene(args.seed * SEED_STRIDE + i, args.size, kinds, theme, fonts, turn,
                                       args.d6_numerals)
        name = f"{args.prefix}_{i:03d}_{theme}"
        cv2.imwrite(str(args.out / f"{name}.jpg"), image_bgr, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
        (args.out / f"{name}.json").write_text(json.dumps(label, indent=1) + "\n")
    print(f"wrote {args.count} scenes to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
