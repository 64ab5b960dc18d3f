#!/usr/bin/env python3
"""Train the learned d6 reader of vision/learned.py: data, training, ONNX export.

Training needs torch, which the station never imports: it runs in a dev venv
of its own. From the repository root:

    python3 -m venv /work/trainenv
    /work/trainenv/bin/pip install torch==2.13.0 numpy opencv-python-headless onnx
    .venv/bin/python scripts/make_scenes.py --out /tmp/dtrain/render_a --count 160 --seed 101 --size 1600x1200
    .venv/bin/python scripts/make_scenes.py --out /tmp/dtrain/render_b --count 96 --seed 102 --size 800x600
    /work/trainenv/bin/python scripts/train_dice.py build --data ../shared/data/real \\
        --renders /tmp/dtrain/render_a /tmp/dtrain/render_b --out /tmp/dtrain/cache
    /work/trainenv/bin/python scripts/train_dice.py cls --cache /tmp/dtrain/cache --minutes 12
    /work/trainenv/bin/python scripts/train_dice.py det --cache /tmp/dtrain/cache --minutes 15

`cls` and `det` write vision/models/dice_cls.onnx and dice_det.onnx (and
check that cv2.dnn gives the same numbers as torch); `lean` writes
dice_lean.onnx, one logit on the classifier's crop: the die leans (cocked) or
lies on another (stacked), trained on the caches' cocked and stacked crops
against their readable dice (docs/vision.md has the command).

What is trained on (licences in ../shared/data/README.md): the `train` side of
the file-name hash split of scripts/split_dataset.py (`is_heldout`, 30 %
held out) of nell-byler, matteop65, aws-oblique and crops/casino-felt; all of
n3vers4ydie-stress, bartek-polyhedral and crops/tomitomi-gray; the project's
rendered scenes (seeds 101, 102: the fixtures use seed 3) and simple drawn
dice. Never trained on: epanemu, crops/webcam-rectified, crops/backlit (and
the numeral and autoroller crop sets).

Die sides are not in the labels: each labelled die's side is the classical
reader's blob around its centre when that agrees with the image's other dice,
else the image's (or the set's) median; with `build --sides-from DET.onnx`,
the side an earlier detector finds on the die, where it finds one (the crops
then look like those the reader makes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from split_dataset import labelled_images  # noqa: E402

from calibration.dataset import is_heldout  # noqa: E402
from vision import learned as L  # noqa: E402

SPLIT_SETS = ("nell-byler", "matteop65", "aws-oblique", "crops/casino-felt")
FULL_SETS = ("n3vers4ydie-stress", "bartek-polyhedral", "crops/tomitomi-gray")
HELDOUT_FRACTION = 0.3
CROPS_PER_DIE = 4
DRAWN_SCENES = 160
CLOSE_UP_MIN_SIDE = 0.3  # of a close-up's short side
DET_SIDE_SPREAD = 2.0  # a detected side this far off the image's median is another die's
PATCH_SIDES = 3.2  # build --patches: the frame's own pixels this many die sides around each die:
# room for any turn, scale and shift of a crop cut as the reader cuts it


# -- data -------------------------------------------------------------------

def _val(name: str) -> bool:
    """A tenth of the training images, to choose when to stop and to check."""
    return int(hashlib.md5((name + "/val").encode()).hexdigest()[:8], 16) / 2**32 < 0.1


def _class_of(d: dict) -> int:
    if d["kind"] == "d6" and d.get("set") != "d6p":
        return int(d["value"]) - 1
    return L.OTHER


def _load(img_path: Path) -> tuple[np.ndarray, list[tuple[float, float, int]]]:
    img = cv2.imdecode(np.fromfile(str(img_path), np.uint8), cv2.IMREAD_COLOR)
    obj = json.loads(img_path.with_suffix(".json").read_text())
    pts = [(*d["center"], _class_of(d)) for d in obj.get("dice", []) if d.get("center")]
    pts += [(*u["center"], L.CLASS_OF_WHY.get(u.get("why", ""), L.OTHER))
            for u in obj.get("unreadable", []) if u.get("center")]
    return img, pts


def _local_side(lab: np.ndarray, x: float, y: float, win: float) -> float | None:
    """The side of the blob at (x, y) that differs from the window's border."""
    h, w = lab.shape[:2]
    x0, y0 = max(0, int(x - win)), max(0, int(y - win))
    x1, y1 = min(w, int(x + win) + 1), min(h, int(y + win) + 1)
    patch = lab[y0:y1, x0:x1].astype(np.float32)
    if patch.shape[0] < 8 or patch.shape[1] < 8:
        return None
    border = np.concatenate([patch[:2].reshape(-1, 3), patch[-2:].reshape(-1, 3),
                             patch[:, :2].reshape(-1, 3), patch[:, -2:].reshape(-1, 3)])
    d = np.linalg.norm(patch - np.median(border, axis=0), axis=2)
    d8 = np.clip(d * 2, 0, 255).astype(np.uint8)
    thr, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    m = (d8 > max(thr, 24)).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, lbl, stats, _ = cv2.connectedComponentsWithStats(m)
    cx, cy = int(x) - x0, int(y) - y0
    k = lbl[min(cy, lbl.shape[0] - 1), min(cx, lbl.shape[1] - 1)]
    if k == 0:
        return None
    ys, xs = np.nonzero(lbl == k)
    (_, _), (rw, rh), _ = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
    if min(rw, rh) <= 0 or max(rw, rh) / min(rw, rh) > 1.5:
        return None
    return float(math.sqrt(rw * rh))


def estimate_sides(img: np.ndarray, pts: list) -> tuple[list[float | None], float | None]:
    """A side for every labelled die: its blob's (classical reader for a
    close-up, else the blob differing from the tray around it), kept when it
    agrees with the image's median, else that median."""
    long_side = max(img.shape[:2])
    c = np.float32([p[:2] for p in pts]).reshape(-1, 2)
    nn = None
    if len(pts) >= 2:
        d = np.hypot(*(c[:, None] - c[None]).transpose(2, 0, 1))
        np.fill_diagonal(d, 1e9)
        nn = d.min(axis=1)
    if long_side <= L.CLOSE_UP_MAX_PX:
        from vision.reader import read_dice_classical

        r = read_dice_classical(img)
        polys = [np.float32(o.outline) for o in list(r.dice) + list(r.rejected) if len(o.outline) >= 3]
        sides = []
        for x, y, _ in pts:
            best = None
            for p in polys:
                if cv2.pointPolygonTest(p, (float(x), float(y)), False) >= 0:
                    s = math.sqrt(max(1.0, cv2.contourArea(p)))
                    best = s if best is None else min(best, s)
            # a crop of a die: the die fills a good part of it (else pips were found)
            sides.append(best if best and best >= CLOSE_UP_MIN_SIDE * min(img.shape[:2]) else None)
    else:
        lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
        sides = []
        for i, (x, y, _) in enumerate(pts):
            win = 0.15 * long_side if nn is None else min(0.15 * long_side, 1.3 * float(nn[i]))
            s = _local_side(lab, x, y, max(win, 12))
            if s is not None and nn is not None and s > 1.15 * nn[i]:
                s = None  # merged with a neighbour
            sides.append(s)
    good = [s for s in sides if s]
    med = float(np.median(good)) if good else None
    out = [s if (s and med and 0.75 * med <= s <= 1.33 * med) else med for s in sides]
    return out, med


def detector_sides(net, img: np.ndarray, pts: list, sides: list) -> tuple[list, int]:
    """Each labelled die's side as the detector sees it (the size the reader
    crops at run time) where a detection lies on its centre, kept when within
    a factor DET_SIDE_SPREAD of the median of the image's detected dice; a die
    the detector misses takes that median (the estimate only where no die of
    the image was detected: it can latch onto a pip or a cluster). Returns
    the sides and how many came from the detector."""
    found, _ = L.detect(net, img, 0.15, 256)
    hits = []
    for x, y, _ in pts:
        best = None
        for f in found:
            d = math.hypot(f.center[0] - x, f.center[1] - y)
            if d < 0.45 * f.side_px and (best is None or d < best[0]):
                best = (d, f.side_px)
        hits.append(best[1] if best else None)
    got = [h for h in hits if h]
    if not got:
        return list(sides), 0
    med = float(np.median(got))
    ok = [h is not None and med / DET_SIDE_SPREAD <= h <= med * DET_SIDE_SPREAD for h in hits]
    return [h if good else med for h, good in zip(hits, ok, strict=True)], sum(ok)


def drawn_scene(rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """Flat dice drawn like tests/vision/drawing.py and bench/bench_read.py."""
    from tests.vision.drawing import draw_die, tray

    w, h = [(800, 600), (1920, 1080), (1600, 1200), (640, 480)][int(rng.integers(4))]
    felt = tuple(int(v) for v in rng.integers(0, 256, 3))
    img = tray(w, h, felt, seed=int(rng.integers(1 << 30)))
    side = float(rng.uniform(0.025, 0.09) * w)
    n = int(rng.integers(1, 21))
    pts = []
    for _ in range(n * 3):
        if len(pts) >= n:
            break
        c = (float(rng.uniform(0.6 * side, w - 0.6 * side)), float(rng.uniform(0.6 * side, h - 0.6 * side)))
        if any(math.hypot(c[0] - p[0], c[1] - p[1]) < 1.45 * side for p in pts):
            continue
        v = int(rng.integers(1, 7))
        body = tuple(int(x) for x in rng.integers(0, 256, 3))
        lum = 0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2]
        pip = (20, 20, 20) if lum > 128 else (240, 240, 240)
        draw_die(img, c, side, v, float(rng.uniform(0, 90)), body, pip)
        pts.append((c[0], c[1], v - 1, side))
    return img, pts


def build(args: argparse.Namespace) -> int:
    rng = np.random.default_rng(0)
    det_net = L.Net(args.sides_from) if args.sides_from else None  # as the reader runs it (vision.onnxnet)
    records = []  # (name, group, img, [(x, y, cls, side)])
    sources = [] if args.renders_only else (
        [(args.data / s, True) for s in SPLIT_SETS] + [(args.data / s, False) for s in FULL_SETS])
    sources += [(Path(r), False) for r in args.renders]
    for root, split in sources:
        set_meds, rows = [], []
        for p in labelled_images(root):
            if split and is_heldout(p, HELDOUT_FRACTION):
                continue
            img, pts = _load(p)
            if img is None:
                continue
            sides, med = estimate_sides(img, pts)
            if med:
                set_meds.append(med / max(img.shape[:2]))
            rows.append((p, img, pts, sides))
        set_med = float(np.median(set_meds)) if set_meds else 0.05
        n_d = n_det = 0
        for p, img, pts, sides in rows:
            fallback = set_med * max(img.shape[:2])
            sides = [s or fallback for s in sides]
            if det_net is not None:
                sides, k = detector_sides(det_net, img, pts, sides)
                n_det += k
            dice = [(x, y, c, s) for (x, y, c), s in zip(pts, sides, strict=True)]
            records.append((f"{root.name}/{p.name}", img, dice))
            n_d += len(dice)
        print(f"{root.name}: {len(rows)} images, {n_d} dice ({n_det} sides from the detector), "
              f"median side {set_med:.3f} of the long side", flush=True)
    for i in range(0 if args.renders_only else DRAWN_SCENES):
        img, dice = drawn_scene(rng)
        records.append((f"drawn/{i}", img, dice))
    print(f"drawn: {0 if args.renders_only else DRAWN_SCENES} scenes", flush=True)

    # detector: each image at the detector's scale, with its dice there
    det_imgs, det_tg, det_val = [], [], []
    # classifier: CROPS_PER_DIE crops per die at random angle, scale and shift; with
    # --patches one native patch per die instead (crops are cut from it in training)
    crops, labels, offs, cval, csrc = [], [], [], [], []

    def add(img, centre, side, cls, val, src, junk=False):
        if args.patches:
            crops.append(native_patch(img, centre, side))
            labels.append(cls)
            cval.append(val)
            csrc.append(src)
            return
        for _ in range(1 if junk else CROPS_PER_DIE):  # junk: one crop, not shifted
            _add_crop(img, centre, side, cls, rng, crops, labels, offs, 0.0 if junk else 0.12)
            cval.append(val)

    sources = sorted({name.split("/")[0] for name, _, _ in records})
    for name, img, dice in records:
        di = L.det_input(img)
        det_imgs.append(di.image)
        det_tg.append(np.float32([[x * di.scale + di.offset[0], y * di.scale + di.offset[1],
                                   s * di.scale] for x, y, _, s in dice]).reshape(-1, 3))
        val = _val(name)
        det_val.append(val)
        src = sources.index(name.split("/")[0])
        h, w = img.shape[:2]
        for x, y, c, s in dice:
            add(img, (x, y), s, c, val, src)
        med = float(np.median([d[3] for d in dice])) if dice else 0.05 * max(h, w)
        # junk: tray away from every die; halfway between two dice
        for _ in range(2 if max(h, w) > L.CLOSE_UP_MAX_PX else 0):
            q = (rng.uniform(0, w), rng.uniform(0, h))
            if all(math.hypot(q[0] - x, q[1] - y) > 1.1 * max(s, med) for x, y, _, s in dice):
                add(img, q, med * rng.uniform(0.8, 1.25), L.OTHER, val, src, junk=True)
        for i, (x1, y1, _, s1) in enumerate(dice):
            for x2, y2, _, s2 in dice[i + 1:]:
                if math.hypot(x1 - x2, y1 - y2) < 1.5 * max(s1, s2):
                    add(img, ((x1 + x2) / 2, (y1 + y2) / 2), (s1 + s2) / 2, L.OTHER, val, src, junk=True)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.patches:
        np.savez(args.out / "patches.npz", **Patches.pack(crops), y=np.int64(labels), val=np.bool_(cval),
                 src=np.int16(csrc), sources=np.array(sources))
        for k, name in enumerate(sources):
            print(f"  {name}: {csrc.count(k)} patches")
    else:
        np.savez(args.out / "cls.npz", x=np.stack(crops), y=np.int64(labels), off=np.float32(offs),
                 val=np.bool_(cval))
    with open(args.out / "det.npz", "wb") as f:
        np.savez(f, **{f"img{i}": im for i, im in enumerate(det_imgs)},
                 **{f"tg{i}": t for i, t in enumerate(det_tg)}, val=np.bool_(det_val))
    counts = np.bincount(labels, minlength=L.N_CLASSES)
    print("crops per class:", dict(zip([str(c) for c in L.CLASSES], counts.tolist(), strict=True)))
    print(f"detector images: {len(det_imgs)}")
    return 0


def _add_crop(img, centre, side, cls, rng, crops, labels, offs, shift_sides: float = 0.12) -> None:
    ang = float(rng.uniform(0, 360))
    s_used = side * float(np.exp(rng.normal(0, 0.12)))
    r, t = shift_sides * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
    c = (centre[0] + r * side * math.cos(t), centre[1] + r * side * math.sin(t))
    crops.append(L.crop_die(img, c, s_used, ang))
    m = L.crop_matrix(c, s_used, ang)
    u, v = m @ np.array([centre[0], centre[1], 1.0])
    k = L.CROP_PX / L.CROP_SIDES / s_used * side  # the true side in crop pixels
    offs.append(((u - L.CROP_PX / 2) / k, (v - L.CROP_PX / 2) / k))
    labels.append(cls)


# -- augmentation -------------------------------------------------------------

def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    f = img.astype(np.float32)
    f *= rng.uniform(0.75, 1.25, 3).astype(np.float32)  # white balance
    f = (f - 128) * rng.uniform(0.7, 1.3) + 128 + rng.uniform(-30, 30)  # contrast, brightness
    if rng.uniform() < 0.3:
        g = f.mean(axis=2, keepdims=True)
        f = g + (f - g) * rng.uniform(0.0, 1.0)  # desaturate
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.uniform() < 0.3:
        k = float(rng.uniform(0.3, 1.3))
        out = cv2.GaussianBlur(out, (0, 0), k)
    if rng.uniform() < 0.3:
        out = np.clip(out + rng.normal(0, rng.uniform(2, 10), out.shape), 0, 255).astype(np.uint8)
    if rng.uniform() < 0.3:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def _batch_colour(xb, torch):
    """Cheap colour jitter of a whole NCHW batch: gains per channel, contrast,
    brightness, some noise."""
    n = xb.shape[0]
    g = torch.empty(n, 3, 1, 1).uniform_(0.75, 1.25)
    c = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3)
    b = torch.empty(n, 1, 1, 1).uniform_(-0.12, 0.12)
    xb = ((xb * g - 0.5) * c + 0.5 + b)
    xb = xb + torch.randn_like(xb) * torch.empty(n, 1, 1, 1).uniform_(0, 0.03)
    return xb.clamp(0, 1)


# -- networks -------------------------------------------------------------------

def _nets():
    import torch
    from torch import nn

    def cbr(i, o, s=1, k=3, g=1):
        return [nn.Conv2d(i, o, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    def dws(i, o, s=1):
        return nn.Sequential(*cbr(i, i, s, 3, i), *cbr(i, o, 1, 1))

    class Detector(nn.Module):
        def __init__(self):
            super().__init__()
            self.s4 = nn.Sequential(*cbr(3, 16, 2), *cbr(16, 32, 2))
            self.s8 = nn.Sequential(dws(32, 64, 2), dws(64, 64))
            self.s16 = nn.Sequential(dws(64, 96, 2), dws(96, 96), dws(96, 96))
            self.lat16 = nn.Conv2d(96, 64, 1)
            self.f8 = dws(64, 64)
            self.lat8 = nn.Conv2d(64, 32, 1)
            self.f4 = dws(32, 32)
            self.head = nn.Conv2d(32, 4, 1)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")

        def forward(self, x):
            a = self.s4(x)
            b = self.s8(a)
            c = self.s16(b)
            b = self.f8(b + self.up(self.lat16(c)))
            a = self.f4(a + self.up(self.lat8(b)))
            return self.head(a)

    class DetExport(nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):
            o = self.net(x)
            return torch.cat([torch.sigmoid(o[:, :3]), o[:, 3:]], dim=1)

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.f = nn.Sequential(
                *cbr(3, 16), nn.MaxPool2d(2),
                *cbr(16, 32), nn.MaxPool2d(2),
                *cbr(32, 48), nn.MaxPool2d(2),
                *cbr(48, 64), *cbr(64, 32, 2),
            )
            self.fc = nn.Sequential(nn.Flatten(), nn.Linear(32 * 9, 96), nn.ReLU(inplace=True),
                                    nn.Dropout(0.1), nn.Linear(96, L.N_CLASSES + 2))

        def forward(self, x):
            return self.fc(self.f(x))

    class ClassifierM(nn.Module):
        """Three times the width and twice the depth of Classifier: the small
        one under-fits (train accuracy barely above validation)."""

        def __init__(self):
            super().__init__()
            self.f = nn.Sequential(
                *cbr(3, 24), nn.MaxPool2d(2),
                *cbr(24, 48), *cbr(48, 48), nn.MaxPool2d(2),
                *cbr(48, 64), *cbr(64, 64), nn.MaxPool2d(2),
                *cbr(64, 96), *cbr(96, 48, 2),
            )
            self.fc = nn.Sequential(nn.Flatten(), nn.Linear(48 * 9, 128), nn.ReLU(inplace=True),
                                    nn.Dropout(0.1), nn.Linear(128, L.N_CLASSES + 2))

        def forward(self, x):
            return self.fc(self.f(x))

    class Lean(nn.Module):
        """The small classifier's layers with one output: the logit that the
        die leans (cocked) or lies on another (stacked)."""

        def __init__(self):
            super().__init__()
            self.f = nn.Sequential(
                *cbr(3, 16), nn.MaxPool2d(2),
                *cbr(16, 32), nn.MaxPool2d(2),
                *cbr(32, 48), nn.MaxPool2d(2),
                *cbr(48, 64), *cbr(64, 32, 2),
            )
            self.fc = nn.Sequential(nn.Flatten(), nn.Linear(32 * 9, 64), nn.ReLU(inplace=True),
                                    nn.Dropout(0.2), nn.Linear(64, 1))

        def forward(self, x):
            return self.fc(self.f(x))

    return Detector, DetExport, {"small": Classifier, "medium": ClassifierM, "lean": Lean}


class _Clock:
    """A learning rate that follows the wall clock: warm-up, then a cosine
    down to nothing when the time given is up (the machine is shared, so
    steps per minute are unknown)."""

    def __init__(self, opt, minutes: float, lr: float):
        self.opt, self.lr = opt, lr
        self.t0, self.total = time.time(), minutes * 60

    def tick(self) -> bool:
        f = (time.time() - self.t0) / self.total
        if f >= 1:
            return False
        lr = self.lr * min(1.0, f / 0.03) * 0.5 * (1 + math.cos(math.pi * f))
        for g in self.opt.param_groups:
            g["lr"] = lr
        return True


def _learn(opt, loss) -> None:
    """One optimiser step on the loss."""
    opt.zero_grad()
    loss.backward()
    opt.step()


def _to_tensor(imgs: list[np.ndarray]):
    import torch

    return torch.from_numpy(L.blob_of(imgs))


def _export(model, example, path: Path, dynamic: dict) -> None:
    import torch

    model.eval()
    torch.onnx.export(model, example, str(path), input_names=["x"], output_names=["y"],
                      dynamic_axes=dynamic, opset_version=13, dynamo=False)
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(example.numpy())
    got = net.forward()
    want = model(example).detach().numpy()
    print(f"{path.name}: {path.stat().st_size / 1024:.0f} KiB, cv2.dnn vs torch max diff "
          f"{float(np.abs(got - want).max()):.2e}")


def train_cls(args: argparse.Namespace) -> int:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    rng = np.random.default_rng(1)
    parts = [np.load(c / "cls.npz") for c in [args.cache, *args.extra]]
    x, y, off, val = (np.concatenate([d[k] for d in parts]) for k in ("x", "y", "off", "val"))
    tr, va = np.nonzero(~val)[0], np.nonzero(val)[0]
    counts = np.bincount(y[tr], minlength=L.N_CLASSES).astype(np.float64)
    w = torch.tensor((counts.max() / np.maximum(counts, 1)) ** 0.5, dtype=torch.float32)
    _, _, classifiers = _nets()
    net = classifiers[args.arch]()
    if args.init:  # an earlier run's .pt, or a shipped .onnx (its batch norms then stay fixed)
        net.load_state_dict(_weights(args.init, net), strict=args.init.suffix != ".onnx")
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    clock = _Clock(opt, args.minutes, args.lr)
    step, bs = 0, args.batch
    while step < args.steps and clock.tick():
        net.train()
        _norms_fixed(net, torch, args.init)
        idx = rng.choice(tr, bs)
        imgs, offs = [], []
        for i in idx:
            im, o = x[i], off[i].copy()
            k = int(rng.integers(4))
            im = np.rot90(im, k)
            for _ in range(k):  # the offset turns with the crop (90 degrees counter-clockwise)
                o = np.array([o[1], -o[0]])
            if rng.uniform() < 0.5:
                im, o = im[:, ::-1], np.array([-o[0], o[1]])
            im = np.ascontiguousarray(im)
            imgs.append(photometric(im, rng) if rng.uniform() < 0.25 else im)
            offs.append(o)
        xb = _to_tensor(imgs)
        xb = _batch_colour(xb, torch)
        out = net(xb)
        yb = torch.from_numpy(y[idx])
        loss = F.cross_entropy(out[:, :L.N_CLASSES], yb, weight=w, label_smoothing=0.02)
        loss = loss + _offset_loss(out, yb, offs, torch)
        _learn(opt, loss)
        step += 1
        if step % 200 == 0:
            print(f"step {step} loss {loss.item():.3f} {_cls_val(net, x, y, va)}", flush=True)
    print(f"stopped at step {step}: {_cls_val(net, x, y, va)}")
    for t in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
        print(f"  p >= {t}: {_cls_val(net, x, y, va, t)}")
    net.eval()
    _export(net, _to_tensor([x[0], x[1]]), args.models / "dice_cls.onnx", {"x": {0: "n"}, "y": {0: "n"}})
    torch.save(net.state_dict(), args.cache / "cls.pt")
    return 0


def native_patch(img: np.ndarray, centre, side: float) -> tuple[np.ndarray, tuple[float, float], float]:
    """The frame's own pixels PATCH_SIDES die sides around a die (black beyond
    the frame, as the reader's crop), the die's centre in it, and its side."""
    r = int(math.ceil(PATCH_SIDES / 2 * side)) + 2
    x0, y0 = int(round(centre[0])) - r, int(round(centre[1])) - r
    h, w = img.shape[:2]
    sub = img[max(0, y0):min(h, y0 + 2 * r + 1), max(0, x0):min(w, x0 + 2 * r + 1)]
    top, left = max(0, -y0), max(0, -x0)
    sub = cv2.copyMakeBorder(sub, top, 2 * r + 1 - sub.shape[0] - top, left, 2 * r + 1 - sub.shape[1] - left,
                             cv2.BORDER_CONSTANT, value=(0, 0, 0))
    return sub, (centre[0] - x0, centre[1] - y0), float(side)


class Patches:
    """The native patches of a cache, packed in one buffer (they differ in size)."""

    def __init__(self, buf, start, shape, centre, side):
        self.buf, self.start, self.shape, self.centre, self.side = buf, start, shape, centre, side

    @staticmethod
    def pack(items: list) -> dict:
        shape = np.int32([p.shape[:2] for p, _, _ in items])
        size = shape[:, 0].astype(np.int64) * shape[:, 1] * 3
        return {"buf": np.concatenate([p.ravel() for p, _, _ in items]),
                "start": np.r_[0, np.cumsum(size)[:-1]], "shape": shape,
                "centre": np.float32([c for _, c, _ in items]), "side": np.float32([s for _, _, s in items])}

    @classmethod
    def concat(cls, loaded: list) -> Patches:
        base = np.cumsum([0] + [len(d["buf"]) for d in loaded])[:-1]
        return cls(np.concatenate([d["buf"] for d in loaded]),
                   np.concatenate([d["start"] + b for d, b in zip(loaded, base, strict=True)]),
                   *(np.concatenate([d[k] for d in loaded]) for k in ("shape", "centre", "side")))

    def __len__(self) -> int:
        return len(self.start)

    def crop(self, i: int, rng: np.random.Generator, shift_sides: float = 0.12,
             scale_sd: float = 0.12) -> tuple[np.ndarray, tuple[float, float]]:
        """A training crop of die i: `cut` at any turn, the side off by a random
        factor, the centre off by up to `shift_sides`, mirrored half the time."""
        r, t = shift_sides * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
        return self.cut(i, (r * math.cos(t), r * math.sin(t)),
                        float(np.clip(np.exp(rng.normal(0, scale_sd)), 0.78, 1.28)),
                        float(rng.uniform(0, 360)), bool(rng.uniform() < 0.5))

    def cut(self, i: int, shift: tuple[float, float] = (0.0, 0.0), scale: float = 1.0,
            angle_deg: float = 0.0, mirror: bool = False) -> tuple[np.ndarray, tuple[float, float]]:
        """Die i's classifier crop cut as the reader cuts it (learned.crop_die),
        centred `shift` die sides off the die, its side times `scale`, turned
        by `angle_deg`; and the die's centre offset in it (die sides), the
        classifier's second output."""
        h, w = (int(v) for v in self.shape[i])
        patch = self.buf[self.start[i]:self.start[i] + h * w * 3].reshape(h, w, 3)
        (cx, cy), side = self.centre[i], float(self.side[i])
        s_used = side * scale
        c = (cx + shift[0] * side, cy + shift[1] * side)
        crop = L.crop_die(patch, c, s_used, angle_deg)
        u, v = L.crop_matrix(c, s_used, angle_deg) @ np.array([cx, cy, 1.0])
        k = L.CROP_PX / L.CROP_SIDES / s_used * side  # the true side in crop pixels
        o = ((u - L.CROP_PX / 2) / k, (v - L.CROP_PX / 2) / k)
        if mirror:
            crop, o = crop[:, ::-1], (-o[0], o[1])
        return np.ascontiguousarray(crop), o


def _load_patches(caches: list[Path], src_power: float):
    """The patches of the caches, and a sampling weight per training patch:
    each source weighs its size to `src_power` (0: every source alike, 1: by size)."""
    parts = [dict(np.load(c / "patches.npz")) for c in caches]
    x = Patches.concat(parts)
    y = np.concatenate([d["y"] for d in parts])
    val = np.concatenate([d["val"] for d in parts])
    names = [f"{c.name}:{n}" for c, d in zip(caches, parts, strict=True) for n in d["sources"]]
    base = np.cumsum([0] + [len(d["sources"]) for d in parts])[:-1]
    src = np.concatenate([d["src"].astype(np.int64) + b for d, b in zip(parts, base, strict=True)])
    n = np.bincount(src[~val], minlength=len(names)).astype(np.float64)
    wt = np.where(~val, (np.maximum(n, 1) ** src_power / np.maximum(n, 1))[src], 0.0)
    for k, name in enumerate(names):
        print(f"  {name}: {int(n[k])} training patches, {wt[src == k].sum() / wt.sum():.3f} of each batch")
    return x, y, val, wt / wt.sum()


def _hard_weighted(x, y, val, wt, model: Path, factor: float, below: float,
                   dice_only: bool = False) -> np.ndarray:
    """The sampling weights, but a training patch `model` (a classifier's
    .onnx) gives its own label less than `below` on its plain crop (the die
    centred, upright) weighs `factor` times as much: the dice the shipped
    classifier does not read surely (dark dice with red pips, oblique top
    faces) come back more often. With `dice_only`, only readable dice's
    patches (labels 1-6): weighing up the renders' cocked and stacked crops
    too made a small classifier refuse flat dice as cocked."""
    net = L.Net(model)
    tr = np.nonzero(~val)[0]
    p_own = np.ones(len(y), np.float32)
    for a in range(0, len(tr), 512):
        idx = tr[a:a + 512]
        crops = [x.cut(int(i))[0] for i in idx]
        out = net.run(L.blob_of(crops))[0][:, :L.N_CLASSES]
        e = np.exp(out - out.max(1, keepdims=True))
        p_own[idx] = (e / e.sum(1, keepdims=True))[np.arange(len(idx)), y[idx]]
    hard = (~val) & (p_own < below) & ((y < 6) if dice_only else True)
    print(f"hard patches (own label p < {below}): {int(hard.sum())} of {len(tr)}, weighed x{factor}", flush=True)
    w = np.where(hard, wt * factor, wt)
    return w / w.sum()


def _teacher(path: Path, arch, torch):
    """A classifier to distil from, as a function of a batch: a .pt of `arch`
    (torch) or any classifier's .onnx (run by cv2.dnn, as the reader runs it)."""
    if path.suffix == ".onnx":
        net = cv2.dnn.readNetFromONNX(str(path))

        def run(xb):
            net.setInput(xb.numpy())
            return torch.from_numpy(net.forward())
        return run
    model = arch()
    model.load_state_dict(torch.load(path))
    return model.eval()


def train_pcls(args: argparse.Namespace) -> int:
    """The classifier from patch caches (build --patches): every crop drawn anew
    from its die's patch. With --teacher, it also learns the teacher's soft
    answers on the same crops (distillation)."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(args.threads)  # an .onnx teacher
    torch.manual_seed(0)
    rng = np.random.default_rng(1)
    x, y, val, wt = _load_patches([args.cache, *args.extra], args.src_power)
    if args.hard > 1:
        judge = args.hard_from or args.init
        if judge is None or judge.suffix != ".onnx":
            raise SystemExit("train_dice.py pcls --hard: needs --hard-from CLASSIFIER.onnx (or an .onnx --init)")
        wt = _hard_weighted(x, y, val, wt, judge, args.hard, args.hard_below, args.hard_dice_only)
    va = np.nonzero(val)[0]
    vrng = np.random.default_rng(7)  # the same validation crops every time
    vx = np.stack([x.crop(i, vrng)[0] for i in va])
    vy = y[va]
    counts = np.bincount(y[~val], minlength=L.N_CLASSES).astype(np.float64)
    w = torch.tensor(np.minimum((counts.max() / np.maximum(counts, 1)) ** 0.5, args.max_class_weight),
                     dtype=torch.float32)
    print(f"train {int((~val).sum())} patches, val {len(va)}; class weights {np.round(w.numpy(), 2).tolist()}",
          flush=True)
    classifiers = _nets()[2]
    net = classifiers[args.arch]()
    if args.init:  # an earlier run's .pt, or a shipped .onnx (its batch norms then stay fixed)
        net.load_state_dict(_weights(args.init, net), strict=args.init.suffix != ".onnx")
    teachers = [_teacher(t, classifiers[args.teacher_arch], torch) for t in args.teacher]
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=args.wd)
    clock = _Clock(opt, args.minutes, args.lr)
    step, bs, tau = 0, args.batch, args.tau
    best = -1.0
    while step < args.steps and clock.tick():
        net.train()
        _norms_fixed(net, torch, args.init)
        idx = rng.choice(len(y), bs, p=wt)
        imgs, offs = [], []
        for i in idx:
            im, o = x.crop(i, rng)
            imgs.append(_photo(im, rng, 0.3))
            offs.append(o)
        xb = _batch_colour(_to_tensor(imgs), torch)
        out = net(xb)
        yb = torch.from_numpy(y[idx])
        logits = out[:, :L.N_CLASSES]
        loss = F.cross_entropy(logits, yb, weight=w, label_smoothing=0.02)
        if teachers:  # the teachers' tempered answers, averaged
            with torch.no_grad():
                soft = sum(torch.softmax(t(xb)[:, :L.N_CLASSES] / tau, 1) for t in teachers) / len(teachers)
            kd = F.kl_div(F.log_softmax(logits / tau, 1), soft, reduction="batchmean") * tau * tau
            loss = (1 - args.kd) * loss + args.kd * kd
        loss = loss + _offset_loss(out, yb, offs, torch)
        _learn(opt, loss)
        step += 1
        if step % args.every == 0:
            line = _cls_val(net, vx, vy, np.arange(len(vy)))
            print(f"step {step} loss {loss.item():.3f} {line} ({(time.time() - clock.t0) / 60:.0f} min)",
                  flush=True)
            torch.save(net.state_dict(), args.cache / f"{args.name}.pt")
            best = max(best, float(line.split("acc ")[1].split(";")[0]))
    print(f"stopped at step {step}: {_cls_val(net, vx, vy, np.arange(len(vy)))}")
    for t in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
        print(f"  p >= {t}: {_cls_val(net, vx, vy, np.arange(len(vy)), t)}")
    net.eval()
    torch.save(net.state_dict(), args.cache / f"{args.name}.pt")
    _export(net, _to_tensor([vx[0], vx[1]]), args.models / f"{args.name}.onnx", {"x": {0: "n"}, "y": {0: "n"}})
    return 0


LEAN_CLASSES = (L.CLASS_OF_WHY["cocked"], L.CLASS_OF_WHY["stacked"])  # what the lean network is to see
ARCHS = ("small", "medium")  # the classifiers of _nets()


def _photo(im: np.ndarray, rng: np.random.Generator, share: float = 0.25) -> np.ndarray:
    """The crop, sometimes (`share` of the time) re-photographed."""
    return photometric(im, rng) if rng.uniform() < share else im


def _augment(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop at one of the square's eight symmetries, sometimes re-photographed."""
    im = np.rot90(im, int(rng.integers(4)))
    if rng.uniform() < 0.5:
        im = im[:, ::-1]
    return _photo(np.ascontiguousarray(im), rng)


def _offset_loss(out, yb, offs, torch):
    """The classifier's second head: where the die's centre is in its crop
    (in sides), learnt on the crops of dice only."""
    import torch.nn.functional as F

    die = yb < 6
    if not die.any():
        return 0.0
    ob = torch.from_numpy(np.float32(offs))
    return 2.0 * F.smooth_l1_loss(out[die, L.N_CLASSES:], ob[die], beta=0.05)


def _weights(path: Path, net, prefix: str = "m.") -> dict:
    """The weights of an earlier run for `net`: its .pt, or a shipped .onnx
    (the export folds each batch norm into its convolution: the folded kernel
    goes to the convolution, its bias to the norm's shift, the norm otherwise
    the identity). Only the tensors whose names and shapes fit `net`."""
    import torch

    mine = net.state_dict()
    if path.suffix != ".onnx":
        got = torch.load(path)
    else:
        import onnx
        from onnx import numpy_helper

        g = onnx.load(str(path)).graph

        def own(name: str) -> str:  # an export of a wrapper names the net's tensors "m.<name>"
            return name[len(prefix):] if name.startswith(prefix) and name[len(prefix):] in mine else name

        init = {own(i.name): numpy_helper.to_array(i) for i in g.initializer}
        got = {k: torch.from_numpy(v.copy()) for k, v in init.items() if k in mine}
        convs = [n for n in g.node if n.op_type == "Conv" and own(n.input[1]) not in mine]
        names = [k[:-len(".weight")] for k, v in mine.items()
                 if k.endswith(".weight") and v.dim() == 4 and k not in init]
        for conv, name in zip(convs, names, strict=True):
            got[name + ".weight"] = torch.from_numpy(init[own(conv.input[1])].copy())
            layer, _, idx = name.rpartition(".")
            bn = f"{layer}.{int(idx) + 1}" if idx.isdigit() else ""
            if len(conv.input) > 2 and bn + ".bias" in mine:
                got[bn + ".bias"] = torch.from_numpy(init[own(conv.input[2])].copy())
                got[bn + ".weight"] = torch.ones_like(mine[bn + ".weight"])
                got[bn + ".running_mean"] = torch.zeros_like(mine[bn + ".running_mean"])
                got[bn + ".running_var"] = torch.ones_like(mine[bn + ".running_var"])
    got = {k: v for k, v in got.items() if k in mine and v.shape == mine[k].shape}
    print(f"from {path}: {len(got)} of {len(mine)} tensors", flush=True)
    return got


def _norms_fixed(net, torch, init: Path | None) -> None:
    """A net started from a shipped .onnx (`_weights`): its batch norms are the
    identity there, their statistics folded into the convolutions, so they
    stay in eval mode while the rest trains (call after each `net.train()`)."""
    if init is None or init.suffix != ".onnx":
        return
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


def train_lean(args: argparse.Namespace) -> int:
    """The lean network (vision/models/dice_lean.onnx): one logit, a die that
    leans or lies on another, against every readable die. Half of each batch
    is such dice (they are few), half readable ones."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    rng = np.random.default_rng(2)
    if args.patches:  # patch caches: every crop drawn anew from its die's patch
        x, y, val, _ = _load_patches([args.cache, *args.extra], 1.0)
        sample = lambda i: _photo(x.crop(i, rng)[0], rng)  # noqa: E731
    else:
        parts = [np.load(c / "cls.npz") for c in [args.cache, *args.extra]]
        x, y, val = (np.concatenate([d[k] for d in parts]) for k in ("x", "y", "val"))
        sample = lambda i: _augment(x[i], rng)  # noqa: E731
    lean = np.isin(y, LEAN_CLASSES)
    pos, neg = np.nonzero(lean & ~val)[0], np.nonzero((y < 6) & ~val)[0]
    neg_w = None  # readable dice drawn alike, or the false alarms of --hard-neg-from more often
    if args.patches and args.hard_neg > 1 and args.hard_neg_from:
        neg_w = _lean_false_alarms(x, neg, args.hard_neg_from, args.hard_neg, args.hard_neg_above)
    va = np.nonzero((lean | (y < 6)) & val)[0]
    vx, vlean, vi = x, lean, va  # what validation looks at
    if args.patches:  # the same validation crops every time
        vrng = np.random.default_rng(7)
        vx, vlean, vi = np.stack([x.crop(i, vrng)[0] for i in va]), lean[va], np.arange(len(va))
    print(f"train: {len(pos)} leaning, {len(neg)} readable; val {len(va)}", flush=True)
    net = _nets()[2]["lean"]()
    if args.init:  # a classifier's (or an earlier lean run's) layers where their shapes fit
        net.load_state_dict(_weights(args.init, net), strict=False)
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    clock = _Clock(opt, args.minutes, args.lr)
    step, half = 0, args.batch // 2
    while step < args.steps and clock.tick():
        net.train()
        _norms_fixed(net, torch, args.init)
        idx = np.r_[rng.choice(pos, half), rng.choice(neg, half, p=neg_w)]
        xb = _batch_colour(_to_tensor([sample(i) for i in idx]), torch)
        yb = torch.from_numpy(np.float32(np.isin(y[idx], LEAN_CLASSES)))
        loss = F.binary_cross_entropy_with_logits(net(xb)[:, 0], yb)
        _learn(opt, loss)
        step += 1
        if step % 200 == 0:
            print(f"step {step} loss {loss.item():.3f} {_lean_val(net, vx, vlean, vi)}", flush=True)
    print(f"stopped at step {step}: {_lean_val(net, vx, vlean, vi)}")
    net.eval()
    _export(net, _to_tensor([vx[0], vx[1]]), args.models / "dice_lean.onnx", {"x": {0: "n"}, "y": {0: "n"}})
    torch.save(net.state_dict(), args.cache / "lean.pt")
    return 0


def _lean_false_alarms(x, neg, model: Path, factor: float, above: float) -> np.ndarray:
    """Sampling weights over the readable training patches `neg`: those `model` (a lean
    network's .onnx) calls leaning at >= `above` on their plain crop weigh `factor` times
    as much (flat dice the shipped network refuses, e.g. a wide perspective strip)."""
    net = L.Net(model)
    p = np.zeros(len(neg), np.float32)
    for a in range(0, len(neg), 512):
        crops = [x.cut(int(i))[0] for i in neg[a:a + 512]]
        p[a:a + 512] = 1.0 / (1.0 + np.exp(-net.run(L.blob_of(crops))[0][:, 0]))
    hard = p >= above
    print(f"readable patches the lean network calls leaning (p >= {above}): {int(hard.sum())} of "
          f"{len(neg)}, weighed x{factor}", flush=True)
    w = np.where(hard, factor, 1.0)
    return w / w.sum()


def _lean_val(net, x, lean, va) -> str:
    import torch

    net.eval()
    with torch.no_grad():
        p = torch.sigmoid(torch.cat([net(_to_tensor(list(x[va[i:i + 2048]])))
                                     for i in range(0, len(va), 2048)])[:, 0]).numpy()
    pos, neg = p[lean[va]], p[~lean[va]]
    return "val " + ", ".join(f"p>={t}: leaning {float((pos >= t).mean()):.2f} readable "
                               f"{float((neg >= t).mean()):.4f}" for t in (0.5, 0.9, 0.98))


def _cls_val(net, x, y, va, t: float = 0.9) -> str:
    import torch

    net.eval()
    with torch.no_grad():
        p = torch.softmax(net(_to_tensor(list(x[va])))[:, :L.N_CLASSES], 1).numpy()
    pred, conf = p.argmax(1), p.max(1)
    acc = float((pred == y[va]).mean())
    die = y[va] < 6
    hi = conf >= t
    ans = hi & (pred < 6)
    wrong = float((ans & (pred != y[va])).sum()) / max(1, int(die.sum()))
    right = float((ans & (pred == y[va])).sum()) / max(1, int(die.sum()))
    return f"val acc {acc:.3f}; at p>={t} dice right {right:.3f} wrong {wrong:.4f}"


def _heat_target(tg: np.ndarray, hc: int, wc: int):
    heat = np.zeros((hc, wc), np.float32)
    reg = np.zeros((3, hc, wc), np.float32)
    mask = np.zeros((hc, wc), np.float32)
    yy, xx = np.mgrid[0:hc, 0:wc].astype(np.float32)
    for x, y, s in tg:
        cx, cy = x / L.DET_STRIDE, y / L.DET_STRIDE
        if not (0 <= cx < wc and 0 <= cy < hc):
            continue
        sig = max(0.6, 0.18 * s / L.DET_STRIDE)
        g = np.exp(-((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2) / (2 * sig * sig))
        heat = np.maximum(heat, g)
        ix, iy = int(cx), int(cy)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (cx - ix, cy - iy, math.log(max(s, 1.0)))
        mask[iy, ix] = 1.0
    return heat, reg, mask


def _det_patch(img: np.ndarray, tg: np.ndarray, rng, size: int):
    sc = float(np.exp(rng.uniform(math.log(0.6), math.log(1.6))))
    im = cv2.resize(img, None, fx=sc, fy=sc, interpolation=cv2.INTER_AREA if sc < 1 else cv2.INTER_LINEAR)
    t = tg.copy()
    t *= sc
    h, w = im.shape[:2]
    ph, pw = max(h, size), max(w, size)
    canvas = np.full((ph, pw, 3), L.PAD_GREY, np.uint8)
    oy, ox = int(rng.integers(0, ph - h + 1)), int(rng.integers(0, pw - w + 1))
    canvas[oy:oy + h, ox:ox + w] = im
    t[:, 0] += ox
    t[:, 1] += oy
    y0, x0 = int(rng.integers(0, ph - size + 1)), int(rng.integers(0, pw - size + 1))
    patch = canvas[y0:y0 + size, x0:x0 + size]
    t[:, 0] -= x0
    t[:, 1] -= y0
    k = int(rng.integers(4))
    for _ in range(k):  # 90 degrees counter-clockwise: (x, y) -> (y, size - x)
        patch = np.rot90(patch)
        t = np.stack([t[:, 1], size - t[:, 0], t[:, 2]], axis=1) if len(t) else t
    return photometric(np.ascontiguousarray(patch), rng), t


def train_det(args: argparse.Namespace) -> int:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    rng = np.random.default_rng(2)
    imgs, tgs, vals = [], [], []
    for c in [args.cache, *args.extra]:
        d = np.load(c / "det.npz")
        imgs += [d[f"img{i}"] for i in range(len(d["val"]))]
        tgs += [d[f"tg{i}"] for i in range(len(d["val"]))]
        vals.append(d["val"])
    val = np.concatenate(vals)
    tr = [i for i in range(len(val)) if not val[i]]
    va = [i for i in range(len(val)) if val[i]]
    Detector, DetExport, _ = _nets()
    net = Detector()
    if args.init:  # an earlier run's .pt, or the shipped .onnx (its export names the net's tensors "net.")
        net.load_state_dict(_weights(args.init, net, "net."), strict=args.init.suffix != ".onnx")
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    clock = _Clock(opt, args.minutes, args.lr)
    size, bs, step = 256, args.batch, 0
    hc = size // L.DET_STRIDE
    keep = cv2.dnn.readNetFromONNX(str(args.keep)) if args.keep else None
    while step < args.steps and clock.tick():
        net.train()
        _norms_fixed(net, torch, args.init)
        ims, heats, regs, masks = [], [], [], []
        for i in rng.choice(tr, bs):
            p, t = _det_patch(imgs[i], tgs[i], rng, size)
            h, r, m = _heat_target(t, hc, hc)
            ims.append(p)
            heats.append(h)
            regs.append(r)
            masks.append(m)
        xb = _to_tensor(ims)
        out = net(xb)
        heat = torch.from_numpy(np.stack(heats))
        reg = torch.from_numpy(np.stack(regs))
        mask = torch.from_numpy(np.stack(masks))
        p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
        pos = (heat >= 1.0).float()
        neg_w = (1 - heat) ** 4
        focal = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * neg_w * p ** 2 * torch.log(1 - p)).sum()
        npos = pos.sum().clamp(min=1)
        off = torch.sigmoid(out[:, 1:3])
        l_off = (F.l1_loss(off, reg[:, :2], reduction="none").sum(1) * mask).sum() / npos
        l_size = (F.l1_loss(out[:, 3], reg[:, 2], reduction="none") * mask).sum() / npos
        loss = focal / npos + l_off + l_size
        if keep is not None:  # where the kept detector finds a die, its offsets and sides stay
            keep.setInput(xb.numpy())
            kept = torch.from_numpy(keep.forward())  # heat, dx, dy (sigmoid), log side
            where = (kept[:, 0] >= 0.3).float()
            nk = where.sum().clamp(min=1)
            l_keep = (((off - kept[:, 1:3]).abs().sum(1) + (out[:, 3] - kept[:, 3]).abs()) * where).sum() / nk
            loss = loss + args.keep_weight * l_keep
        _learn(opt, loss)
        step += 1
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.3f} (focal {focal.item() / npos.item():.3f} "
                  f"off {l_off.item():.3f} size {l_size.item():.3f})", flush=True)
        if step % 1000 == 0:  # a run that is cut off goes on from here with --init
            torch.save(net.state_dict(), args.cache / "det.pt")
    print(f"stopped at step {step}")
    net.eval()
    print(_det_val(net, imgs, tgs, va))
    torch.save(net.state_dict(), args.cache / "det.pt")
    ex = _to_tensor([imgs[va[0]] if imgs[va[0]].shape[0] % 32 == 0 else imgs[0]])
    _export(DetExport(net), ex, args.models / "dice_det.onnx",
            {"x": {2: "h", 3: "w"}, "y": {2: "hh", 3: "ww"}})
    return 0


def _det_val(net, imgs, tgs, va) -> str:
    import torch

    found = total = extra = 0
    with torch.no_grad():
        for i in va:
            out = net(_to_tensor([imgs[i]]))[0].numpy()
            heat = 1 / (1 + np.exp(-out[0]))
            pk = (heat >= 0.3) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
            ys, xs = np.nonzero(pk)
            pts = np.float32([(x + 0.5, y + 0.5) for y, x in zip(ys, xs, strict=True)]) * L.DET_STRIDE
            used = set()
            for x, y, s in tgs[i]:
                total += 1
                if len(pts):
                    dd = np.hypot(pts[:, 0] - x, pts[:, 1] - y)
                    j = int(dd.argmin())
                    if dd[j] < 0.5 * s and j not in used:
                        used.add(j)
                        found += 1
            extra += len(pts) - len(used)
    return f"val: found {found} of {total} dice, {extra} extra peaks"


def soup(args: argparse.Namespace) -> int:
    """The weights of networks of one graph (runs fine-tuned from the same
    shipped weights) averaged, `--weights` each (default equal): a "model
    soup". The graphs must be the same, node for node (each tensor in the
    same place); the first network's file is the template."""
    import onnx
    from onnx import numpy_helper

    models = [onnx.load(str(p)) for p in args.nets]
    w = np.asarray(args.weights or [1.0] * len(models), np.float64)
    if len(w) != len(models) or w.min() < 0 or w.sum() <= 0:
        raise SystemExit(f"train_dice.py soup: {len(models)} networks need as many weights >= 0, not {args.weights}")
    w = w / w.sum()

    def layout(m):
        names = {t.name for t in m.graph.initializer}
        return [(n.op_type, [i for i in n.input if i in names]) for n in m.graph.node]

    for p, m in zip(args.nets[1:], models[1:], strict=True):
        if layout(m) != layout(models[0]):
            raise SystemExit(f"train_dice.py soup: {p} is not the graph of {args.nets[0]}")
    tensors = [{t.name: numpy_helper.to_array(t) for t in m.graph.initializer} for m in models]
    for t in models[0].graph.initializer:
        x = tensors[0][t.name]
        if x.dtype.kind == "f":
            mean = sum(wk * tk[t.name].astype(np.float64) for wk, tk in zip(w, tensors, strict=True))
            t.CopyFrom(numpy_helper.from_array(mean.astype(x.dtype), t.name))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(models[0], str(args.out))
    print(f"{args.out}: {len(models)} networks averaged, weights {np.round(w, 3).tolist()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="training data from the labelled sets")
    b.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "real")
    b.add_argument("--renders", type=Path, nargs="*", default=[])
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--renders-only", action="store_true",
                   help="only the --renders folders (an extra cache for `cls --extra`)")
    b.add_argument("--patches", action="store_true",
                   help="one native patch per die (patches.npz) instead of fixed crops (cls.npz): "
                        "`cls --patches` draws a new crop from it every time")
    b.add_argument("--sides-from", type=Path,
                   help="a detector (.onnx): crop each die at the side it finds there (the side "
                        "the reader crops at), where it finds the die; else the estimated side")
    what = {"cls": "the classifier", "det": "the detector", "lean": "the cocked/stacked network",
            "pcls": "a classifier from patch caches (build --patches)"}
    for name in ("cls", "det", "lean", "pcls"):
        t = sub.add_parser(name, help=f"train {what[name]}")
        t.add_argument("--cache", type=Path, required=True)
        t.add_argument("--models", type=Path, default=L.MODELS_DIR)
        t.add_argument("--minutes", type=float, default=12)
        t.add_argument("--steps", type=int, default=6000 if name == "cls" else 4000)
        t.add_argument("--threads", type=int, default=1)
        t.add_argument("--init", type=Path, help="start from these weights (a .pt of an earlier run, or a shipped .onnx)")
        t.add_argument("--lr", type=float, default=3e-3)
        t.add_argument("--batch", type=int, default=12 if name == "det" else 128)
        t.add_argument("--extra", type=Path, nargs="*", default=[],
                       help="more caches (build --renders-only) trained on with --cache's")
        if name in ("cls", "pcls"):
            t.add_argument("--arch", choices=ARCHS, default="medium")
        if name == "det":
            t.add_argument("--keep", type=Path,
                           help="a detector (.onnx) whose offsets and sides to keep where it finds a die "
                                "(the classifiers were trained on crops cut where it cuts them)")
            t.add_argument("--keep-weight", type=float, default=1.0)
        if name == "lean":
            t.add_argument("--patches", action="store_true", help="--cache and --extra are patch caches")
            t.add_argument("--hard-neg", type=float, default=1.0,
                           help="readable patches --hard-neg-from calls leaning weigh this many times more")
            t.add_argument("--hard-neg-from", type=Path, help="the lean network (.onnx) that tells them")
            t.add_argument("--hard-neg-above", type=float, default=0.5)
        if name == "pcls":
            t.add_argument("--name", default="dice_cls", help="the .pt (in --cache) and .onnx (in --models)")
            t.add_argument("--src-power", type=float, default=0.5,
                           help="a source's share of a batch grows as its size to this power")
            t.add_argument("--wd", type=float, default=1e-4)
            t.add_argument("--every", type=int, default=500, help="validate and save every this many steps")
            t.add_argument("--teacher", type=Path, nargs="*", default=[],
                           help="distil from these classifiers (.pt of --teacher-arch, or .onnx), averaged")
            t.add_argument("--teacher-arch", choices=ARCHS, default="medium")
            t.add_argument("--tau", type=float, default=2.0, help="distillation temperature")
            t.add_argument("--kd", type=float, default=0.7, help="the teacher's share of the loss")
            t.add_argument("--hard", type=float, default=1.0,
                           help="patches --hard-from reads less surely than --hard-below weigh this many times more")
            t.add_argument("--hard-from", type=Path, help="the classifier (.onnx) that tells them (default: --init)")
            t.add_argument("--hard-below", type=float, default=0.75)
            t.add_argument("--hard-dice-only", action="store_true",
                           help="--hard weighs up readable dice only (labels 1-6), not cocked/stacked/... crops")
            t.add_argument("--max-class-weight", type=float, default=1e9,
                           help="cap a rare class's loss weight (a cache without the rendered cocked and "
                                "stacked dice has a few dozen of them: uncapped, every answer hedges towards them)")
    sp = sub.add_parser("soup", help="average the weights of networks of one graph (a model soup)")
    sp.add_argument("--out", type=Path, required=True)
    sp.add_argument("--weights", type=lambda v: [float(x) for x in v.split(",")],
                    help="one per network, comma-separated (default: equal)")
    sp.add_argument("nets", type=Path, nargs="+", help="the networks (.onnx), the first the template")
    args = ap.parse_args(argv)
    if args.cmd == "build":
        return build(args)
    if args.cmd == "soup":
        return soup(args)
    args.models.mkdir(parents=True, exist_ok=True)
    return {"cls": train_cls, "det": train_det, "lean": train_lean, "pcls": train_pcls}[args.cmd](args)


if __name__ == "__main__":
    raise SystemExit(main())
