"""Fewer malloc arenas in the long-running station process.

glibc gives each thread that allocates its own arena (up to 8 per core);
the station's web threads, the camera thread, the reader and onnxruntime's
threads each keep freed frames and crops in theirs, and the process's
resident memory grows with the number of arenas, not with what it uses.
Two arenas keep it lower at no cost in speed (docs/benchmarks.md, the
sixteenth session: the 2 MP peak 198 -> 168 MB with the tree before and
after in turn, `bench/bench_memory.py`; press -> page the same within the
machine's drift, `bench/bench_latency.py`). A fixed mmap or trim threshold
lowered the peak further (145 MB) but made reads 1.5-2 times slower, and a
malloc_trim after each press cost 5-7 ms a read: neither is done.

Only the station's own commands (`run`, `demo`) call this, first thing,
before any thread starts: arenas already made stay. Where the C library is
not glibc it does nothing and says so in its return value.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os

ARENAS = 2
M_ARENA_MAX = -8  # glibc's malloc.h


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") else None


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Cap malloc's arenas at `arenas` (glibc's mallopt); True where it took.

    The environment's MALLOC_ARENA_MAX, when set, wins: a user who tuned it
    keeps their value."""
    if arenas < 1:
        raise ValueError(f"arenas must be at least 1, not {arenas}")
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    libc = _libc()
    if libc is None:
        return False
    return bool(libc.mallopt(M_ARENA_MAX, int(arenas)))


def arena_count() -> int | None:
    """How many arenas malloc has now (glibc's malloc_info), None elsewhere."""
    libc = _libc()
    if libc is None or not hasattr(libc, "malloc_info") or not hasattr(libc, "open_memstream"):
        return None
    buf, size = ctypes.c_void_p(), ctypes.c_size_t()
    libc.open_memstream.restype = ctypes.c_void_p
    fp = libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
    if not fp:
        return None
    try:
        libc.malloc_info(0, ctypes.c_void_p(fp))
    finally:
        libc.fclose(ctypes.c_void_p(fp))
    text = ctypes.string_at(buf, size.value).decode("ascii", "replace")
    libc.free(buf)
    return text.count("<heap nr=")
