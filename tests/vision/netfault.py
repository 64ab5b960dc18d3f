"""A shipped 8-bit network that cannot be loaded, for the tests of what the
station does then (an OpenCV too old for 8-bit layers: a 32-bit Pi takes
what piwheels has)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

import cv2
import pytest

ERROR = "Unsupported ONNX layer: QuantizeLinear"


@contextmanager
def unloadable(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> Iterator[None]:
    """Within: `module`'s network (vision.faces or vision.numerals) fails to
    load with ERROR. After: undone, and loaded afresh when next asked for."""

    def cannot(_model):
        raise cv2.error(ERROR)

    monkeypatch.setattr(module, "Net", cannot)
    module.load_net.cache_clear()
    try:
        yield
    finally:
        monkeypatch.undo()
        module.load_net.cache_clear()
