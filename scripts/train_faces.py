#!/usr/bin/env python3
"""Train the face network (vision/faces.py) and export it as ONNX.

A development tool: it needs torch, which is never a run-time dependency.
Use a separate virtual environment (see vision/models/README.md):

    python3 -m venv /work/trainenv
    /work/trainenv/bin/pip install torch==2.13.0 numpy opencv-python-headless onnx
    /work/trainenv/bin/python scripts/train_faces.py build --out /tmp/faces.npz DATASET...
    /work/trainenv/bin/python scripts/train_faces.py train --data /tmp/faces.npz \
        --out vision/models/faces.onnx

`build` cuts, from every labelled image of the data sets (FORMATS.md §1), a
PATCH_PX patch around each labelled die (the die PATCH_DIE_PX wide, upright:
rotation is added while training), around each labelled unreadable die
(class `unreadable`), and around random places away from every die (class
`none`, also near misses half a die off a die's centre). The die's side is
the side of the reader's own blob for it (as read_dice will see it), or the
image's median when the blob was not found. `--repeat N` after a data set
makes it weigh N times.

`train` draws crops from the patches with heavy augmentation (any rotation,
scale, centre jitter, blur, noise, colour, JPEG), trains a small CNN and writes
the ONNX file (outputs `logits` and `embedding`, any input size).

`average` writes the weights (1 - alpha) * FIRST + alpha * SECOND of two
networks of one architecture, SECOND trained on from FIRST (.onnx or .pt):
half-way between a network and its fine-tuned self keeps most of what each
reads best.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.teach import _blobs  # noqa: E402
from vision import faces  # noqa: E402

PATCH_PX = 112
PATCH_DIE_PX = 48.0
NEG_PER_DIE = 1.5
NEAR_MISS_SIDES = (0.5, 0.85)
POS_JITTER_SIDES = 0.17  # the dense grid is 0.3 die sides: a die is within this of a cell
SCALE_JITTER = 0.15  # log-uniform: the side estimate may be off by this much
UNREADABLE_WHY = ("cocked", "on end", "stacked")
READER_CENTRE_MIN_SIDES = 0.08  # build --reader-centres: a blob this far off its label's centre is cut too


# ----------------------------------------------------------------------------- build


def _patch(frame, centre, side):
    k = PATCH_DIE_PX / max(1.0, side)
    M = np.float32([[k, 0, PATCH_PX / 2 - k * centre[0]], [0, k, PATCH_PX / 2 - k * centre[1]]])
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(frame, M, (PATCH_PX, PATCH_PX), flags=interp,
                          borderMode=cv2.BORDER_REFLECT)


def image_patches(frame: np.ndarray, label: dict, rng: np.random.Generator,
                  reader_centres: bool = False):
    """(patches, class indices) of one labelled image. `reader_centres`: a
    labelled die whose blob (the reader's, as `_blobs` sees it) is centred
    more than READER_CENTRE_MIN_SIDES off its label is cut a second time,
    centred on the blob: where read_dice centres its crop (a numeral die's
    outline takes in the side faces perspective shows near the frame's edge;
    its top face, the label's centre, lies outward of it)."""
    blobs, _ = _blobs(frame)  # every blob the d6 reader sees, as teaching sees them
    dice = [d for d in label.get("dice", []) if "center" in d]
    unread = [u for u in label.get("unreadable", []) if "center" in u]
    centres = [tuple(d["center"]) for d in dice] + [tuple(u["center"]) for u in unread]
    if not centres:
        return [], []
    all_sides = [s for _, s in blobs]
    sides, blob_at = [], []
    for c in centres:
        near = [(np.hypot(b[0] - c[0], b[1] - c[1]), s, b) for b, s in blobs]
        near = [n for n in near if n[0] < 0.6 * n[1]]
        sides.append(min(near)[1] if near else None)
        blob_at.append(min(near)[2] if near else None)
    found = [s for s in sides if s]
    med = float(np.median(found)) if found else (float(np.median(all_sides)) if all_sides
                                                  else 0.06 * max(frame.shape[:2]))
    # blobs with a shadow are too big; a die alone is never far from the image's median
    sides = [med if s is None or not 0.6 * med < s < 1.6 * med else s for s in sides]
    out_p, out_c = [], []
    for d, c, s, b in zip(dice, centres, sides, blob_at, strict=False):
        ci = faces.class_index(d["kind"], d["value"])
        if ci is None:
            continue
        out_p.append(_patch(frame, c, s))
        out_c.append(ci)
        if reader_centres and b is not None and np.hypot(b[0] - c[0], b[1] - c[1]) > READER_CENTRE_MIN_SIDES * s:
            out_p.append(_patch(frame, b, s))
            out_c.append(ci)
    for u, c, s in zip(unread, centres[len(dice):], sides[len(dice):], strict=True):
        if u.get("why") in UNREADABLE_WHY:
            out_p.append(_patch(frame, c, s))
            out_c.append(faces.CLASSES.index((faces.UNREADABLE, 0)))
    h, w = frame.shape[:2]
    cs = np.asarray(centres, np.float64)
    none = faces.CLASSES.index((faces.NONE, 0))

    def far(p, min_sides):
        return np.all(np.hypot(cs[:, 0] - p[0], cs[:, 1] - p[1]) >= min_sides * med)

    want = int(round(NEG_PER_DIE * len(centres))) + 1
    tries = 0
    while want > 0 and tries < 200:
        tries += 1
        if rng.random() < 0.35:  # a near miss: part of a die in the crop, not centred
            c0 = cs[rng.integers(len(cs))]
            r, a = rng.uniform(*NEAR_MISS_SIDES) * med, rng.uniform(0, 2 * np.pi)
            p = (c0[0] + r * np.cos(a), c0[1] + r * np.sin(a))
            if not far(p, NEAR_MISS_SIDES[0] - 0.05):
                continue
        else:
            p = (rng.uniform(0, w), rng.uniform(0, h))
            if not far(p, 0.9):
                continue
        out_p.append(_patch(frame, p, med))
        out_c.append(none)
        want -= 1
    return out_p, out_c


def build(args) -> int:
    rng = np.random.default_rng(args.seed)
    patches, classes, weights, sources = [], [], [], []
    specs = []
    for item in args.datasets:
        path, _, rep = item.partition(":")
        specs.append((Path(path), float(rep or 1)))
    for si, (root, rep) in enumerate(specs):
        n0 = len(patches)
        imgs = sorted(p for p in root.rglob("*") if p.suffix.lower() in (".jpg", ".png")
                      and p.with_suffix(".json").is_file())
        for img in imgs:
            frame = cv2.imread(str(img))
            if frame is None:
                continue
            label = json.loads(img.with_suffix(".json").read_text())
            p, c = image_patches(frame, label, rng, args.reader_centres)
            patches += p
            classes += c
            weights += [rep] * len(p)
            sources += [si] * len(p)
        print(f"{root}: {len(imgs)} images, {len(patches) - n0} patches", file=sys.stderr)
    np.savez_compressed(args.out, patches=np.asarray(patches, np.uint8),
                        classes=np.asarray(classes, np.int16),
                        weights=np.asarray(weights, np.float32),
                        sources=np.asarray(sources, np.int16),
                        names=np.asarray([str(r) for r, _ in specs]))
    counts = np.bincount(classes, minlength=len(faces.CLASSES))
    print(" ".join(f"{k}:{v}={n}" for (k, v), n in zip(faces.CLASSES, counts, strict=True)))
    return 0


# ----------------------------------------------------------------------------- train


def augment(patch: np.ndarray, positive: bool, rng: np.random.Generator) -> np.ndarray:
    s = float(np.exp(rng.uniform(-SCALE_JITTER, SCALE_JITTER)))
    k = faces.DIE_PX / PATCH_DIE_PX * s
    jit = POS_JITTER_SIDES * PATCH_DIE_PX if positive else 0.0  # a moved near miss may be centred
    c = PATCH_PX / 2 + rng.uniform(-jit, jit, 2)
    M = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), rng.uniform(0, 360), k)
    M[0, 2] += faces.CROP_PX / 2 - c[0]
    M[1, 2] += faces.CROP_PX / 2 - c[1]
    img = cv2.warpAffine(patch, M, (faces.CROP_PX, faces.CROP_PX), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REFLECT)
    f = img.astype(np.float32)
    f = f * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    f = f * rng.uniform(0.85, 1.15, 3) + rng.uniform(-15, 15, 3)  # colour cast
    if rng.random() < 0.15:
        f[:] = f.mean(axis=2, keepdims=True)
    if rng.random() < 0.35:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.3))
    if rng.random() < 0.2:  # motion-ish smear
        kk = int(rng.integers(2, 5))
        f = cv2.blur(f, (kk, 1) if rng.random() < 0.5 else (1, kk))
    f += rng.normal(0, rng.uniform(0, 8), f.shape)
    img = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.35:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def make_model(n_classes: int, emb: int = 48, arch: str = "small"):
    """The small network (~160 k weights), or `wide`: its first four layers,
    then 96 channels at the last stride and a wider 6x6 window (~450 k
    weights, ~12 % more multiply-adds: the early layers, at full
    resolution, cost the most)."""
    import torch.nn as nn

    def cbr(i, o, s=1):
        return [nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    early = [*cbr(3, 12), *cbr(12, 24, 2), *cbr(24, 32, 2), *cbr(32, 48)]
    if arch == "small":
        late = [*cbr(48, 64, 2), nn.Conv2d(64, emb, 6, 1, 0, bias=False), nn.BatchNorm2d(emb)]
    elif arch == "wide":
        late = [*cbr(48, 96, 2), nn.Conv2d(96, 96, 6, 1, 0, bias=False), nn.BatchNorm2d(96),
                nn.ReLU(inplace=True), nn.Conv2d(96, emb, 1, 1, 0, bias=False), nn.BatchNorm2d(emb)]
    else:
        raise ValueError(f"unknown arch {arch!r} (small, wide)")

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(*early, *late)
            self.head = nn.Conv2d(emb, n_classes, 1)
            self.act = nn.ReLU()
            self.drop = nn.Dropout(0.2)

        def forward(self, x):
            e = self.body(x)
            return self.head(self.drop(self.act(e))), e

    return Net()


def train(args) -> int:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    zs = [np.load(d) for d in args.data]  # every built file's patches, as one
    patches = np.concatenate([z["patches"] for z in zs])
    classes = np.concatenate([z["classes"] for z in zs]).astype(np.int64)
    weights = np.concatenate([z["weights"] for z in zs])
    print(f"{len(patches)} patches", file=sys.stderr)
    none = faces.CLASSES.index((faces.NONE, 0))
    counts = np.bincount(classes, minlength=len(faces.CLASSES)).astype(np.float64)
    p = weights / np.sqrt(np.maximum(counts[classes], 1))  # rare faces drawn more often
    p = p / p.sum()
    model = make_model(len(faces.CLASSES), arch=args.arch)
    folded: list = []  # norms loaded folded (a shipped .onnx, or a run from one): kept fixed
    if args.init:
        sys.path.insert(0, str(ROOT / "scripts"))
        from train_dice import _weights

        # the tensors whose names and shapes fit (a wide net takes a small one's first layers)
        got = _weights(args.init, model)
        model.load_state_dict(got, strict=False)
        for name, m in model.named_modules():
            mean, var = got.get(name + ".running_mean"), got.get(name + ".running_var")
            if (isinstance(m, torch.nn.BatchNorm2d) and mean is not None and var is not None
                    and bool((mean == 0).all()) and bool((var == 1).all())):
                folded.append(m)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * args.steps
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)
    t0 = time.time()
    step = 0
    for ep in range(args.epochs):
        model.train()
        for m in folded:  # folded norms' statistics are gone: keep them
            m.eval()
        tot = acc = 0.0
        for _ in range(args.steps):
            idx = rng.choice(len(patches), args.batch, p=p)
            imgs = [augment(patches[i], classes[i] != none, rng) for i in idx]
            x = (torch.from_numpy(np.stack(imgs)).permute(0, 3, 1, 2).float()
                 - faces.INPUT_MEAN) * faces.INPUT_SCALE
            y = torch.from_numpy(classes[idx])
            logits, _ = model(x)
            logits = logits.flatten(1)
            loss = F.cross_entropy(logits, y, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            tot += float(loss.detach())
            acc += float((logits.argmax(1) == y).float().mean())
        print(f"epoch {ep + 1}/{args.epochs} loss {tot / args.steps:.3f} "
              f"acc {acc / args.steps:.3f} {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    model.eval()
    export(model, args.out)
    torch.save(model.state_dict(), str(args.out) + ".pt")
    return 0


def average(args) -> int:
    import torch

    sys.path.insert(0, str(ROOT / "scripts"))
    from train_dice import _weights

    model = make_model(len(faces.CLASSES), arch=args.arch)
    first, second = _weights(args.first, model), _weights(args.second, model)
    mixed = {}
    for name, v in model.state_dict().items():
        if name in first and name in second and v.is_floating_point():
            mixed[name] = (1 - args.alpha) * first[name] + args.alpha * second[name]
        elif name in second:
            mixed[name] = second[name]
    missing = [n for n, v in model.state_dict().items() if v.is_floating_point() and n not in mixed]
    if missing:
        print(f"not in both networks: {', '.join(missing)}", file=sys.stderr)
        return 2
    model.load_state_dict(mixed, strict=False)
    model.eval()
    export(model, args.out)
    torch.save(model.state_dict(), str(args.out) + ".pt")
    return 0


def export(model, out: Path) -> None:
    import torch

    class Named(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            logits, e = self.m(x)
            return logits, e

    x = torch.zeros(1, 3, faces.CROP_PX, faces.CROP_PX)
    torch.onnx.export(Named(model), x, str(out), input_names=["input"],
                      output_names=["logits", "embedding"], opset_version=13,
                      dynamic_axes={"input": {0: "n", 2: "h", 3: "w"},
                                    "logits": {0: "n", 2: "gh", 3: "gw"},
                                    "embedding": {0: "n", 2: "gh", 3: "gw"}},
                      dynamo=False)
    print(f"wrote {out} ({Path(out).stat().st_size / 1024:.0f} KB)", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="cut labelled patches from data sets")
    b.add_argument("--out", required=True, type=Path)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--reader-centres", action="store_true",
                   help="cut each die a second time centred on the reader's blob for it, where that lies off the label's centre")
    b.add_argument("datasets", nargs="+", help="DATASET[:REPEAT]")
    t = sub.add_parser("train", help="train and export ONNX")
    t.add_argument("--data", required=True, type=Path, nargs="+", help="files of `build`, trained on together")
    t.add_argument("--out", required=True, type=Path)
    t.add_argument("--epochs", type=int, default=20)
    t.add_argument("--steps", type=int, default=60)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--arch", default="small", choices=("small", "wide"))
    t.add_argument("--init", type=Path, help="start from these weights (a .pt of an earlier run, or a shipped .onnx)")
    a = sub.add_parser("average", help="average two networks' weights and export ONNX")
    a.add_argument("--out", required=True, type=Path)
    a.add_argument("--alpha", type=float, default=0.5, help="the second network's share")
    a.add_argument("--arch", default="wide", choices=("small", "wide"))
    a.add_argument("first", type=Path)
    a.add_argument("second", type=Path)
    args = ap.parse_args(argv)
    return {"build": build, "train": train, "average": average}[args.cmd](args)


if __name__ == "__main__":
    raise SystemExit(main())
