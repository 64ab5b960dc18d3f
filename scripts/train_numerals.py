#!/usr/bin/env python3
"""Train the numeral network (vision/numerals.py) on faces drawn in many fonts.

A development tool: `build` needs Pillow (the `render` extra) and the fonts,
`train` needs torch (the `train` extra, a venv of its own; never a run-time
dependency):

    python scripts/train_numerals.py fonts --out FONTS.json /usr/share/fonts
    python scripts/train_numerals.py build --fonts FONTS.json --split train --count 300000 --seed 1 --out train.npz
    python scripts/train_numerals.py build --fonts FONTS.json --split held --count 20000 --seed 2 --out held.npz
    /work/trainenv/bin/python scripts/train_numerals.py train --data train.npz --val held.npz \
        --out vision/models/numerals.onnx --minutes 60

`fonts` lists the TrueType/OpenType files that draw ten distinct digits
(one file per distinct design). `--split held` draws only the held-out
fonts (every Liberation font and a tenth of the other families, by a hash
of the family's name), `train` only the others: the held set measures fonts
the network never saw. `build` draws crops with calibration/numeral_synth.py,
in `--jobs` processes. `train --init` starts from an earlier network: the
`.pt` file saved beside each `.onnx`, or a float `.onnx` itself (the one in
git's history; needs onnx in the train venv).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.numerals import CLASSES, CROP_PX, normalise  # noqa: E402

HELD_SHARE = 0.1
HELD_ALWAYS = ("liberation",)  # the unseen fonts of earlier measurements (docs/teaching.md)


def family(path: str) -> str:
    stem = Path(path).stem.lower()
    return re.split(r"[-_ ](bold|italic|oblique|regular|light|medium|semi|extra|black|thin|book|heavy|condensed"
                    r"|narrow|demi|ultra|it|bd|bi|rg|lt)", stem)[0]


def is_held(path: str) -> bool:
    if any(h in path.lower() for h in HELD_ALWAYS):
        return True
    h = int(hashlib.sha1(family(path).encode()).hexdigest()[:8], 16)
    return h / 0xFFFFFFFF < HELD_SHARE


def cmd_fonts(args) -> int:
    from PIL import ImageFont

    files = sorted({str(p) for d in args.dirs for p in Path(d).rglob("*")
                    if p.suffix.lower() in (".ttf", ".otf")})
    seen, ok = set(), []
    for f in files:
        try:
            font = ImageFont.truetype(f, 40)
            masks = [np.asarray(font.getmask(d, mode="L")) for d in "0123456789"]
        except Exception:  # noqa: BLE001 - a font Pillow cannot draw digits with
            continue
        if any(m.size == 0 or m.max() < 128 or (m > 128).sum() < 20 for m in masks):
            continue
        keys = [hashlib.md5(m.tobytes() + str(m.shape).encode()).hexdigest() for m in masks]
        if len(set(keys)) < 10 or "".join(keys) in seen:  # missing glyphs drawn alike; a duplicate
            continue
        seen.add("".join(keys))
        ok.append(f)
    Path(args.out).write_text(json.dumps(ok, indent=0) + "\n")
    held = sum(is_held(f) for f in ok)
    print(f"{len(ok)} fonts of {len(files)} files ({held} held out) -> {args.out}")
    return 0


def _build_part(job):
    from calibration.numeral_synth import batch

    seed, n, fonts, tokens = job
    return batch(seed, n, fonts, tokens)


def cmd_build(args) -> int:
    fonts = json.loads(Path(args.fonts).read_text())
    drop = set(json.loads(Path(args.drop).read_text())) if args.drop else set()
    fonts = [f for f in fonts if is_held(f) == (args.split == "held") and f not in drop]
    per = 2000
    jobs = [(args.seed * 100003 + i, min(per, args.count - i * per), fonts, args.tokens)
            for i in range(-(-args.count // per))]
    _run_parts(_build_part, jobs, args.jobs, args.out, f"from {len(fonts)} fonts")
    return 0


def _run_parts(fn, jobs, processes: int, out: str, what: str) -> None:
    """Run the jobs in `processes` processes; their crops and labels, joined, to `out`."""
    from multiprocessing import Pool

    t = time.time()
    with Pool(processes) as pool:
        parts = pool.map(fn, jobs)
    xs = np.concatenate([p[0] for p in parts])
    ys = np.concatenate([p[1] for p in parts])
    np.savez_compressed(out, x=xs, y=ys)
    print(f"{len(xs)} crops {what} in {time.time() - t:.0f} s -> {out}")


RENDER_THEMES = ("plain", "closeup", "touching", "glare", "wood", "white", "cloth", "warm", "cool",
                 "crowded", "single", "noisy", "casino", "closeup", "cocked")
RENDER_SCALES = (1.2, 2.0)  # crop sides, in the die's drawn size (the reader's SCALES lie within)


def _render_part(job):
    """Crops of the numeral dice (and the d6) of rendered scenes: upright
    within UPRIGHT_DEG, labelled; turned away, `none`; pip faces, leaning
    and stacked dice, `none`."""
    import cv2

    from calibration.numeral_synth import SIDEWAYS_DEG, SYMMETRIC, UPRIGHT_DEG
    from calibration.synth import render_scene, with_fonts
    from calibration.synth_layout import random_scene_spec
    from vision.numerals import CLASSES, crops

    seed, n_scenes, fonts, size = job
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    none = CLASSES.index(("none", 0))
    for i in range(n_scenes):
        theme = RENDER_THEMES[i % len(RENDER_THEMES)]
        spec = random_scene_spec(seed * 1000 + i, size, ("d6", "d8", "d10", "d10t"), theme)
        spec = with_fonts(spec, tuple(fonts), rng)
        img, layers = render_scene(spec)
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        for d, lay in zip(spec.dice, layers, strict=True):
            if d.hidden:
                continue
            side = d.size_px * rng.uniform(*RENDER_SCALES)
            numeral = d.kind != "d6" and d.why is None
            cls = CLASSES.index((d.kind, d.value)) if numeral else none
            up = [d.yaw_deg + rng.uniform(-UPRIGHT_DEG, UPRIGHT_DEG)]
            away = d.yaw_deg + rng.uniform(*SIDEWAYS_DEG)
            if (d.kind, d.value) in SYMMETRIC and abs((away - d.yaw_deg) - 180) < 45:
                away = d.yaw_deg + 90
            c = (lay.center_xy[0] + rng.uniform(-0.08, 0.08) * d.size_px,
                 lay.center_xy[1] + rng.uniform(-0.08, 0.08) * d.size_px)
            for a, label in ((up[0], cls), (away, none)):
                xs.append(crops(grey, c, side, angles=(a,), scales=(1.0,))[0])
                ys.append(label)
    return np.array(xs, np.uint8).reshape(-1, CROP_PX, CROP_PX), np.array(ys, np.int16)


def cmd_render(args) -> int:
    fonts = json.loads(Path(args.fonts).read_text())
    fonts = [f for f in fonts if is_held(f) == (args.split == "held") and f.lower().endswith(".ttf")]
    per = 20
    jobs = [(args.seed * 1009 + i, min(per, args.count - i * per), fonts, (args.width, args.height))
            for i in range(-(-args.count // per))]
    _run_parts(_render_part, jobs, args.jobs, args.out, f"of {args.count} rendered scenes")
    return 0


# ----------------------------------------------------------------------------- train

def _model(width: float = 1.0):
    import torch.nn as nn

    def block(i, o, s):
        return [nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    w = [24, 32, 64, 96, 128]
    w = [int(round(c * width)) for c in w]
    layers = (block(1, w[0], 1) + block(w[0], w[1], 2) + block(w[1], w[1], 1)
              + block(w[1], w[2], 2) + block(w[2], w[2], 1) + block(w[2], w[3], 2)
              + block(w[3], w[3], 1) + block(w[3], w[4], 2))
    side = CROP_PX // 16
    return nn.Sequential(*layers, nn.Flatten(), nn.Dropout(0.2), nn.Linear(w[4] * side * side, len(CLASSES)))


def _load(paths):
    """Crops and labels of `path[:weight]` files, and each crop's sampling weight."""
    xs, ys, ws = [], [], []
    for p in paths:
        path, _, w = str(p).partition(":")
        d = np.load(path)
        xs.append(d["x"])
        ys.append(d["y"])
        ws.append(np.full(len(d["y"]), float(w or 1.0)))
    w = np.concatenate(ws)
    return np.concatenate(xs), np.concatenate(ys).astype(np.int64), w / w.sum()


def _accuracy(model, x, y, bs: int = 1024) -> tuple[float, np.ndarray]:
    import torch

    model.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(x), bs):
            preds.append(model(torch.from_numpy(normalise(x[i:i + bs]))).argmax(1).numpy())
    model.train()
    p = np.concatenate(preds)
    return float((p == y).mean()), p


def _init_from_onnx(model, path: str, x: np.ndarray) -> None:
    """Start from a shipped float network (its batch norms folded into the
    convolutions on export): each convolution takes the folded weights, and
    its batch norm is set, on the statistics of the crops `x`, to add the
    folded bias back, so that the model computes what the file does."""
    import onnx
    import torch
    from onnx import numpy_helper

    g = onnx.load(path).graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    convs = [(inits[n.input[1]], inits[n.input[2]]) for n in g.node if n.op_type == "Conv"]
    gemm = next(n for n in g.node if n.op_type == "Gemm")
    layers = list(model)
    conv_layers = [m for m in layers if isinstance(m, torch.nn.Conv2d)]
    if len(convs) != len(conv_layers):
        raise SystemExit(f"{path}: {len(convs)} convolutions, the model has {len(conv_layers)}")
    h = torch.from_numpy(normalise(x))
    with torch.no_grad():
        k = 0
        for i, m in enumerate(layers):
            if isinstance(m, torch.nn.Conv2d):
                w, b = convs[k]
                k += 1
                m.weight.copy_(torch.from_numpy(w))
                y = m(h)
                mu, var = y.mean(dim=(0, 2, 3)), y.var(dim=(0, 2, 3), unbiased=False)
                bn = layers[i + 1]
                bn.running_mean.copy_(mu)
                bn.running_var.copy_(var)
                bn.weight.copy_(torch.sqrt(var + bn.eps))
                bn.bias.copy_(mu + torch.from_numpy(b))
                h = y + torch.from_numpy(b)[None, :, None, None]
            elif isinstance(m, torch.nn.BatchNorm2d):
                continue
            elif isinstance(m, torch.nn.Linear):
                m.weight.copy_(torch.from_numpy(inits[gemm.input[1]]))
                m.bias.copy_(torch.from_numpy(inits[gemm.input[2]]))
            else:
                h = m(h)


def cmd_train(args) -> int:
    import torch
    import torch.nn as nn

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    x, y, weight = _load(args.data)
    vx, vy, _ = _load(args.val) if args.val else (x[:0], y[:0], None)
    model = _model(args.width)
    if args.init and args.init.endswith(".onnx"):
        _init_from_onnx(model, args.init, x[np.random.default_rng(args.seed + 1).choice(len(x), 4096, p=weight)])
    elif args.init:
        model.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    budget = args.minutes * 60
    step = 0
    while True:
        frac = (time.time() - t0) / budget
        if frac >= 1 or step >= args.steps:
            break
        for g in opt.param_groups:
            g["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * min(1.0, frac)))
        idx = rng.choice(len(x), args.batch, p=weight)
        xb = x[idx]
        if args.invert > 0:  # light ink on dark and dark on light: the same numeral
            flip = rng.random(len(xb)) < args.invert
            xb = np.where(flip[:, None, None], 255 - xb, xb)
        xb = torch.from_numpy(normalise(xb))
        yb = torch.from_numpy(y[idx])
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 500 == 0:
            msg = f"step {step} {time.time() - t0:.0f}s loss {loss.item():.3f}"
            if len(vx):
                acc, _ = _accuracy(model, vx[:4000], vy[:4000])
                msg += f" held {acc:.3f}"
            print(msg, flush=True)
    torch.save(model.state_dict(), str(args.out) + ".pt")
    if len(vx):
        acc, p = _accuracy(model, vx, vy)
        none = CLASSES.index(("none", 0))
        pos = vy != none
        print(f"held-out fonts: accuracy {acc:.4f}; numerals read right {np.mean(p[pos] == vy[pos]):.4f}, "
              f"read as another numeral {np.mean((p[pos] != vy[pos]) & (p[pos] != none)):.4f}; "
              f"none answered a numeral {np.mean(p[~pos] != none):.4f}")
    _export(model, args.out)
    return 0


def _export(model, out) -> None:
    import torch

    model.eval()
    dummy = torch.zeros(1, 1, CROP_PX, CROP_PX)
    torch.onnx.export(model, dummy, str(out), input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}}, opset_version=13,
                      dynamo=False)
    print(f"wrote {out}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fonts")
    f.add_argument("--out", required=True)
    f.add_argument("dirs", nargs="+")
    b = sub.add_parser("build")
    b.add_argument("--fonts", required=True)
    b.add_argument("--drop", help="a JSON list of font files to leave out")
    b.add_argument("--split", choices=("train", "held"), required=True)
    b.add_argument("--count", type=int, required=True)
    b.add_argument("--seed", type=int, required=True)
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--tokens", action="store_true", help="round number tokens only (hard `none`s)")
    b.add_argument("--out", required=True)
    r = sub.add_parser("render")
    r.add_argument("--fonts", required=True)
    r.add_argument("--split", choices=("train", "held"), required=True)
    r.add_argument("--count", type=int, required=True, help="scenes")
    r.add_argument("--seed", type=int, required=True)
    r.add_argument("--width", type=int, default=1200)
    r.add_argument("--height", type=int, default=900)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--out", required=True)
    t = sub.add_parser("train")
    t.add_argument("--data", nargs="+", required=True)
    t.add_argument("--val", nargs="*", default=[])
    t.add_argument("--out", required=True, type=Path)
    t.add_argument("--init", help="start from this network: a .pt state or a float .onnx")
    t.add_argument("--minutes", type=float, default=30)
    t.add_argument("--steps", type=int, default=10 ** 9)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--width", type=float, default=1.0)
    t.add_argument("--invert", type=float, default=0.3)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    return {"fonts": cmd_fonts, "build": cmd_build, "render": cmd_render, "train": cmd_train}[args.cmd](args)


if __name__ == "__main__":
    raise SystemExit(main())
