"""Split a labelled data set in two halves of symlinks, deterministically.

    python scripts/split_dataset.py DATASET [--out /tmp/split-NAME] [--every 2]

Images are sorted by their path inside DATASET; the even-numbered go to
`OUT/teach`, the odd-numbered to `OUT/eval` (each image with its label file,
relative folders kept). Nothing is copied: the halves are symlinks.

    python scripts/split_dataset.py DATASET --heldout 0.3 [--out /tmp/split-NAME]

splits by a hash of each image's file name instead (stable whatever else is in
the folder): about that fraction goes to `OUT/heldout`, the rest to
`OUT/train`. scripts/train_dice.py trains on exactly the `train` side
(`is_heldout`), so `dicestation eval OUT/heldout` measures images the learned
reader never saw.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.dataset import is_heldout  # noqa: E402

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def labelled_images(root: Path) -> list[Path]:
    return [
        p for p in sorted(root.rglob("*"))
        if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file() and p.with_suffix(".json").is_file()
    ]


def _link(img: Path, root: Path, dst_root: Path) -> None:
    rel = img.relative_to(root)
    for src in (img, img.with_suffix(".json")):
        dst = dst_root / rel.parent / src.name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.is_symlink() or dst.exists():
            dst.unlink()
        dst.symlink_to(src.resolve())


def split_by_hash(root: Path, out: Path, fraction: float) -> tuple[int, int]:
    counts = {"train": 0, "heldout": 0}
    for img in labelled_images(root):
        name = "heldout" if is_heldout(img, fraction) else "train"
        _link(img, root, out / name)
        counts[name] += 1
    return counts["train"], counts["heldout"]


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
    ap.add_argument("--heldout", type=float, default=None,
                    help="split by file-name hash: this fraction to OUT/heldout, the rest to OUT/train")
    args = ap.parse_args(argv)
    if not args.dataset.is_dir():
        print(f"split_dataset: {args.dataset}: not a folder", file=sys.stderr)
        return 2
    out = args.out or Path("/tmp") / f"split-{args.dataset.resolve().name}"
    if args.heldout is not None:
        n_train, n_held = split_by_hash(args.dataset, out, args.heldout)
        print(f"train: {n_train} images in {out / 'train'}")
        print(f"heldout: {n_held} images in {out / 'heldout'}")
        return 0
    n_teach, n_eval = split(args.dataset, out, args.every)
    print(f"teach: {n_teach} images in {out / 'teach'}")
    print(f"eval: {n_eval} images in {out / 'eval'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
