"""A child process for the SIGKILL tests: appends reads with photos to a store, forever.

    python -m tests.faults.writer DATA [--pause-in-window]

Prints "committed ID" after each append returns (an acknowledged write). With
--pause-in-window it stops inside the first append, after the event row is
inserted and its photo written but before COMMIT, prints "in-window" and waits
to be killed.
"""

from __future__ import annotations

import sys
import time

import cv2
import numpy as np

import station.store as store_module
from station.store import EventStore


def main() -> int:
    data, pause = sys.argv[1], "--pause-in-window" in sys.argv
    ok, jpeg = cv2.imencode(".jpg", np.full((120, 160, 3), 90, np.uint8))
    blob = jpeg.tobytes()
    if pause:
        real = store_module.write_atomic

        def write_then_wait(path, payload):
            real(path, payload)
            print("in-window", flush=True)
            time.sleep(600)

        store_module.write_atomic = write_then_wait
    with EventStore(data) as store:
        game = store.open_game() or store.start_game("red_mans_throw", ["Ana", "Bruno"], {})
        while True:
            ev = store.append(game.id, "read", {"dice": [], "pad": "x" * 2000},
                              {".jpg": blob, "-annotated.jpg": blob})
            print(f"committed {ev.id}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
