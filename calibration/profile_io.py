"""Save and load a profile folder: `profile.json` (small, readable, versioned)
and `faces.npz` (the taught faces' features).

`profile.json` names its `format` version; this code reads its own version and
refuses an older one (it lacks the face exemplars: teach again), a newer one,
or one made with another feature extractor, with a message naming the
versions. The embeddings are stored as float16, the exemplars as uint8 (a
profile of a whole set stays < 2 MB).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.profile import FEATURE_VERSION, PROFILE_VERSION, Profile, SetInfo

JSON_NAME = "profile.json"
NPZ_NAME = "faces.npz"
FORMAT_NAME = "dicestation-profile"


class ProfileError(ValueError):
    """A profile folder that cannot be used, with why."""


def save(profile: Profile, folder: str | Path) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    doc = {
        "format": FORMAT_NAME,
        "version": profile.version,
        "feature_version": profile.feature_version,
        "classes": [[k, v] for k, v in profile.classes],
        "sets": [
            {"name": s.name, "kinds": list(s.kinds), "side_frac": round(s.side_frac, 5),
             "colour": s.colour, "colour_lab": [round(x, 2) for x in s.colour_lab],
             "faces": [[k, v] for k, v in s.faces], "dice": s.n_dice}
            for s in profile.sets
        ],
        "meta": profile.meta,
    }
    arrays = {"features": profile.features.astype(np.float16),
              "class_idx": profile.class_idx.astype(np.int16),
              "set_idx": profile.set_idx.astype(np.int16),
              "exemplars": profile.exemplars.astype(np.uint8),
              "ex_class": profile.ex_class.astype(np.int16),
              "ex_set": profile.ex_set.astype(np.int16),
              "side_ratio": np.asarray(profile.side_ratio, np.float32)}
    np.savez_compressed(folder / NPZ_NAME, **arrays)
    (folder / JSON_NAME).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return folder


def load(folder: str | Path) -> Profile:
    folder = Path(folder)
    jpath = folder / JSON_NAME
    if not jpath.is_file():
        raise ProfileError(f"{folder}: not a profile folder (no {JSON_NAME})")
    try:
        doc = json.loads(jpath.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProfileError(f"{jpath}: cannot read: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise ProfileError(f"{jpath}: not a dicestation profile")
    version = doc.get("version")
    if not isinstance(version, int) or version < 1:
        raise ProfileError(f"{jpath}: bad profile version {version!r}")
    if version < PROFILE_VERSION:
        raise ProfileError(
            f"{jpath}: profile version {version} is older than this station reads "
            f"(version {PROFILE_VERSION}: it also keeps pictures of every taught face); "
            f"teach the set again (`dicestation teach`)")
    if version > PROFILE_VERSION:
        raise ProfileError(
            f"{jpath}: profile version {version} is newer than this station reads "
            f"(up to version {PROFILE_VERSION}); update the station or teach the set again")
    fv = doc.get("feature_version")
    if fv != FEATURE_VERSION:
        raise ProfileError(
            f"{jpath}: taught with face features version {fv}, this station uses version "
            f"{FEATURE_VERSION}; teach the set again (`dicestation teach`)")
    try:
        with np.load(folder / NPZ_NAME) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError) as exc:
        raise ProfileError(f"{folder / NPZ_NAME}: cannot read: {exc}") from exc
    try:
        classes = tuple((str(k), v) for k, v in doc["classes"])
        sets = tuple(
            SetInfo(name=s["name"], kinds=tuple(s["kinds"]), side_frac=float(s["side_frac"]),
                    colour=s.get("colour"), colour_lab=tuple(s["colour_lab"]),
                    faces=tuple((str(k), v) for k, v in s["faces"]), n_dice=int(s["dice"]))
            for s in doc["sets"]
        )
        return Profile(
            version=PROFILE_VERSION,
            feature_version=fv,
            sets=sets,
            classes=classes,
            features=arrays["features"].astype(np.float32),
            class_idx=arrays["class_idx"].astype(np.int32),
            set_idx=arrays["set_idx"].astype(np.int32),
            meta=dict(doc.get("meta") or {}),
            exemplars=arrays["exemplars"].astype(np.uint8),
            ex_class=arrays["ex_class"].astype(np.int32),
            ex_set=arrays["ex_set"].astype(np.int32),
            side_ratio=tuple(float(x) for x in arrays["side_ratio"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ProfileError(f"{folder}: damaged profile: {exc!r}") from exc
