"""Triggers: the GPIO button, the keyboard; and the status LED.

The HTTP API and the GM page trigger reads through `Station.request_read`
too. gpiozero is imported inside, and the pin factory is passed in, so tests
use gpiozero's `MockFactory` and `pin.drive_low()`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import IO, Any

LED_BLINK_FAST_S = 0.1  # reading
LED_BLINK_SLOW_S = 0.5  # throw again


class GpioButton:
    """A push button between `pin` (BCM) and ground; each press calls `on_press`."""

    def __init__(
        self,
        pin: int,
        on_press: Callable[[], Any],
        *,
        bounce_s: float = 0.05,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import Button

        self.on_press = on_press
        self.bounce_s = bounce_s or 0.0
        self.presses = 0  # accepted presses
        self.bounces = 0  # edges within bounce_s of the edge before: ignored
        self._last = float("-inf")
        self.button = Button(pin, pull_up=True, bounce_time=bounce_s, pin_factory=pin_factory)
        self.button.when_pressed = self._pressed

    def _pressed(self) -> None:
        # Debounce here too: some pin backends (and the mock) ignore bounce_time. A press
        # needs bounce_s of quiet before it: contacts chattering for longer than bounce_s
        # (or a busy CPU delivering the edges late) are still one press.
        now = time.monotonic()
        quiet = now - self._last
        self._last = now
        if quiet < self.bounce_s:
            self.bounces += 1
            return
        self.presses += 1
        self.on_press()

    @property
    def is_pressed(self) -> bool:
        return bool(self.button.is_pressed)

    def close(self) -> None:
        self.button.close()

    def __enter__(self) -> GpioButton:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<GpioButton pin={self.button.pin} presses={self.presses}>"


class StatusLed:
    """An LED that says what the station does: reading (fast blink), done (on), re-throw (slow)."""

    def __init__(self, pin: int, *, pin_factory: Any = None) -> None:
        from gpiozero import LED

        self.led = LED(pin, pin_factory=pin_factory)
        self.shown = "off"

    def show(self, what: str) -> None:
        self.shown = what
        if what == "reading":
            self.led.blink(LED_BLINK_FAST_S, LED_BLINK_FAST_S)
        elif what == "done":
            self.led.on()
        elif what == "rethrow":
            self.led.blink(LED_BLINK_SLOW_S, LED_BLINK_SLOW_S)
        else:
            self.led.off()

    def close(self) -> None:
        self.led.close()

    def __repr__(self) -> str:
        return f"<StatusLed {self.shown}>"


class KeyboardTrigger:
    """Each Enter on `stream` (stdin) is a press; stops at end of input or close()."""

    def __init__(self, stream: IO[str], on_press: Callable[[], Any]) -> None:
        self.stream = stream
        self.on_press = on_press
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="keyboard", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            line = self.stream.readline()
            if not line:
                return
            if not self._stop.is_set():
                self.on_press()

    def close(self) -> None:
        self._stop.set()
