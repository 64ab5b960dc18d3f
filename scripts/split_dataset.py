"""Split a labelled data set in two halves of symlinks, deterministically.

    python scripts/split_dataset.py DATASET [--out /tmp/split-NAME] [--every 2]

Images are sorted by their path inside DATASET; the even-numbered go to
`OUT/teach`, the odd-numbered to `OUT/eval` (each image with its label file,
relative folders kept). Nothing is copied: the halves are symlinks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def labelled_images(root: Path) -> list[Path]:
    return [
        p for p in sorted(root.rglob("*"))
        if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file() and p.with_suffix(".json").is_file()
    ]


def split(root: Path, out: Path, every: int = 2) -> tuple[int, int]:
    halves = {"teach": out / "teach", "eval": out / "eval"}
    counts = {"teach": 0, "eval": 0}
    for i, img in enumerate(labelled_images(root)):
        name = "teach" if i % every == 0 else "eval"
        rel = img.relative_to(root)
        for src in (img, img.with_suffix(".json")):
            dst = halves[name] / rel.parent / src.name
            dst.parent.mkdir(parents=True, exist_ok=True)
            if dst.is_symlink() or dst.exists():
                dst.unlink()
            dst.symlink_to(src.resolve())
        counts[name] += 1
    return counts["teach"], counts["eval"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--out", type=Path, help="default /tmp/split-<dataset name>")
    ap.add_argument("--every", type=int, default=2, help="1 of every N images goes to teach")
    args = ap.parse_args(argv)
    if not args.dataset.is_dir():
        print(f"split_dataset: {args.dataset}: not a folder", file=sys.stderr)
        return 2
    out = args.out or Path("/tmp") / f"split-{args.dataset.resolve().name}"
    n_teach, n_eval = split(args.dataset, out, args.every)
    print(f"teach: {n_teach} images in {out / 'teach'}")
    print(f"eval: {n_eval} images in {out / 'eval'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
