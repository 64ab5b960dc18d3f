"""Run a shipped ONNX network: onnxruntime where it is installed, else OpenCV's dnn.

Every network of vision/models (the detector, the crop classifiers, the lean
network, the face network) is small, and most of a read's time is spent in
them. onnxruntime runs them 1.2-2.9 times faster than OpenCV's dnn module on
one core (bench/bench_engines.py), with the same outputs within 1e-4; it is
a dependency of the package on the machines it has wheels for (x86-64 and
64-bit ARM: a Raspberry Pi on a 64-bit OS). Elsewhere (a 32-bit Pi OS) the
networks run on cv2.dnn, as before: slower, the same answers.

`Net.run(blob, outputs)` is the one call the readers make: an NCHW float32
blob in, the named outputs out.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

RUNTIMES = ("onnxruntime", "cv2.dnn")
# A forward pass is given at most this many crop pixels (batch x height x width): six 48 px
# crops, one 112 px crop. The layers' outputs of a bigger batch are held at once, and freed
# memory stays with the process: 36 numeral crops in one pass raised the station's 2 MP peak
# resident memory by ~20 MB (bench/bench_memory.py); passes of six cost no speed that shows,
# passes of two did (docs/benchmarks.md).
MAX_PASS_PIXELS = 6 * 48 * 48

log = logging.getLogger(__name__)
HAVE_ORT = importlib.util.find_spec("onnxruntime") is not None  # imported when a network loads (~0.25 s)


def default_runtime() -> str:
    return "onnxruntime" if HAVE_ORT else "cv2.dnn"


class Net:
    """One network, loaded from a file or ONNX bytes.

    `runtime`: "onnxruntime" or "cv2.dnn" (default: onnxruntime when it is
    installed). `classic`: on cv2.dnn, OpenCV 5's classic engine (1.8-2 times
    faster on the crop networks than its new one; OpenCV 4 has only that).
    onnxruntime uses as many threads as OpenCV is set to (cv2.setNumThreads),
    read when the network is loaded, never spins waiting for work (the
    station's web server shares the Pi's cores) and keeps no memory arena.
    Where onnxruntime is installed but cannot run the network (the default
    runtime only), cv2.dnn runs it and `fallback` says why.
    """

    def __init__(self, model: str | Path | bytes, runtime: str | None = None, classic: bool = False):
        if runtime is not None and runtime not in RUNTIMES:
            raise ValueError(f"unknown runtime {runtime!r} (one of {', '.join(RUNTIMES)})")
        self.runtime = runtime or default_runtime()
        self.fallback = ""  # why onnxruntime, installed, was not used (the default runtime only)
        if self.runtime == "onnxruntime":
            try:
                self._sess = _ort_session(model)
            except Exception as exc:  # onnxruntime's own errors have no common base class
                if runtime is not None:
                    raise
                # installed but unusable here (a broken install, a wheel for another CPU):
                # OpenCV reads the same file, slower
                self.fallback = f"{type(exc).__name__}: {exc}"
                self.runtime = "cv2.dnn"
                log.warning("onnxruntime cannot run a network (%s); OpenCV's dnn runs it", self.fallback)
            else:
                self._input = self._sess.get_inputs()[0].name
        if self.runtime == "cv2.dnn":
            data = np.frombuffer(model, np.uint8) if isinstance(model, bytes) else str(model)
            engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None) if classic else None
            self._net = (cv2.dnn.readNetFromONNX(data) if engine is None
                         else cv2.dnn.readNetFromONNX(data, engine))

    def run(self, blob: np.ndarray, outputs: list[str] | None = None) -> list[np.ndarray]:
        """The outputs named (None: the output of a network that has one) for
        an NCHW float32 blob, in passes of at most MAX_PASS_PIXELS (one image
        at least); every output is per image, first axis."""
        per = max(1, MAX_PASS_PIXELS // (blob.shape[2] * blob.shape[3])) if blob.ndim == 4 else len(blob)
        if len(blob) <= per:
            return self._pass(blob, outputs)
        passes = [self._pass(blob[i:i + per], outputs) for i in range(0, len(blob), per)]
        return [np.concatenate(parts) for parts in zip(*passes, strict=True)]

    def _pass(self, blob: np.ndarray, outputs: list[str] | None) -> list[np.ndarray]:
        if self.runtime == "onnxruntime":
            got = self._sess.run(outputs, {self._input: blob})
            return got if outputs is not None else got[:1]
        self._net.setInput(blob)
        if outputs is None:
            return [self._net.forward()]
        return list(self._net.forward(outputs))


T = TypeVar("T")
_load_errors: dict[str, str] = {}  # model file name -> why it did not load


def load_shipped(name: str, make: Callable[[bytes], T], onnx_bytes: bytes | None, lost: str) -> T | None:
    """`make(bytes)` of the network vision/models/NAME (or of the given bytes).
    None when the file is not installed, or when it cannot be loaded here
    (an OpenCV too old for 8-bit layers): logged with what is `lost`, and
    `load_error(name)` says why; the readers that do not need it read on."""
    if onnx_bytes is None:
        try:
            onnx_bytes = resources.files("vision").joinpath("models", name).read_bytes()
        except (FileNotFoundError, OSError):
            return None
    try:
        net = make(onnx_bytes)
    except Exception as exc:  # each runtime raises its own errors
        _load_errors[name] = f"{type(exc).__name__}: {exc}"
        log.warning("the network %s cannot be loaded (%s): %s", name, _load_errors[name], lost)
        return None
    _load_errors.pop(name, None)
    return net


def load_error(name: str) -> str:
    """Why vision/models/NAME could not be loaded when it was last asked for
    ('' when it could, or was not asked for)."""
    return _load_errors.get(name, "")


def softmax(logits: np.ndarray) -> np.ndarray:
    """Class probabilities (float32) of logits (N, classes), row by row."""
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def _ort_session(model: str | Path | bytes):
    if not HAVE_ORT:
        raise RuntimeError("onnxruntime is not installed")
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, cv2.getNumThreads())
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.log_severity_level = 3  # errors only
    # no memory arena: it kept ~25 MB resident and the reads were no faster
    # (bench/bench_memory.py, bench/bench_read.py)
    opts.enable_cpu_mem_arena = False
    opts.enable_mem_pattern = False
    src = model if isinstance(model, bytes) else str(model)
    return ort.InferenceSession(src, opts, providers=["CPUExecutionProvider"])
