"""The station's reader: vision.read_dice with the taught dice set in use.

Profiles taught on the calibration page are saved as `profiles/NAME/` in the
data folder (calibration.profile_io). One of them, or none, is in use; the
choice is kept in `calibration/profile.json` so that it survives a restart
or a power cut. A saved choice that can no longer be loaded (a profile of an
older version, a deleted folder) is reported and ignored: the station reads
untaught until the GM teaches or chooses again.

The station also tells the reader the kinds of die the game throws next
(`game_kinds`), so a numbered thing beside the tray is not read as a die of
another game.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Collection
from pathlib import Path

import cv2
import numpy as np

from station.store import write_atomic
from vision.types import Reading

log = logging.getLogger(__name__)

SET_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")  # a dice set's name: its folder under sets/ and profiles/
CHOICE_FILE = Path("calibration") / "profile.json"


class ProfileChoiceError(ValueError):
    """A dice set that cannot be put in use, with why."""


class VisionReader:
    """`reader(frame_bgr, game_kinds=None) -> Reading` with the chosen profile."""

    takes_game_kinds = True  # station.Station passes the next throw's kinds

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self._lock = threading.Lock()
        self._reading = threading.Lock()  # one read at a time (the warm-up's too)
        self._name: str | None = None
        self._profile = None
        self.problem = ""  # why the saved choice was ignored ("" if it was not)
        self._load_choice()

    # --- what pages show ---------------------------------------------------------
    @property
    def in_use(self) -> str | None:
        return self._name

    def taught(self) -> list[str]:
        """Names of the profiles in the data folder."""
        root = self.data_dir / "profiles"
        if not root.is_dir():
            return []
        return sorted(d.name for d in root.iterdir() if (d / "profile.json").is_file())

    # --- choosing ----------------------------------------------------------------
    def use(self, name: str | None) -> None:
        """Read with the profile `name` from the next read on (None: untaught);
        the choice is saved. ProfileChoiceError (and nothing changes) if it
        cannot be loaded."""
        profile = None if name is None else self._load(name)
        with self._lock:
            (self.data_dir / CHOICE_FILE).parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.data_dir / CHOICE_FILE, json.dumps({"profile": name}).encode())
            self._name, self._profile, self.problem = name, profile, ""

    def _load(self, name: str):
        if not isinstance(name, str) or not SET_NAME.match(name):
            raise ProfileChoiceError("set: the name of a taught dice set (letters, digits, - or _)")
        folder = self.data_dir / "profiles" / name
        if not (folder / "profile.json").is_file():
            raise ProfileChoiceError(f"no taught dice set {name!r}: teach it first")
        from calibration.profile_io import ProfileError, load

        try:
            return load(folder)
        except ProfileError as exc:
            raise ProfileChoiceError(f"the dice set {name!r} cannot be used: {exc}") from None

    def _load_choice(self) -> None:
        path = self.data_dir / CHOICE_FILE
        if not path.is_file():
            return
        try:
            name = json.loads(path.read_text(encoding="utf-8")).get("profile")
            if name is not None:
                self._profile = self._load(name)
                self._name = name
        except (OSError, ValueError, AttributeError) as exc:
            self.problem = (f"the taught dice set in use was ignored ({exc}): the station reads "
                            "without it; open Calibrate to teach or choose a set again")
            log.warning("dicestation: %s", self.problem)

    # --- reading -----------------------------------------------------------------
    def __call__(self, frame_bgr: np.ndarray, game_kinds: Collection[str] | None = None) -> Reading:
        from vision import read_dice

        with self._lock:
            profile = self._profile
        with self._reading:
            return read_dice(frame_bgr, profile, game_kinds=game_kinds)

    def warm_up(self) -> float:
        """Load the networks and read two drawn dice, the seconds it took. The
        first read pays for both (~0.4 s on this machine, 3-4 times that on a
        Pi): the station warms up when it starts, so that the first press at
        the table is as quick as the others."""
        from vision import faces, read_dice

        tray = np.full((480, 640, 3), (40, 90, 30), np.uint8)
        for x in (200, 420):  # two white dice showing 1: every network runs once
            cv2.rectangle(tray, (x - 30, 210), (x + 30, 270), (235, 235, 235), -1)
            cv2.circle(tray, (x, 240), 8, (20, 20, 20), -1)
        t = time.perf_counter()
        with self._reading:
            faces.load_net()
            read_dice(tray)
        return time.perf_counter() - t
