"""Random bytes, truncated and huge images to `dicestation read` and to the upload route:
a clear error each time, bounded memory, no crash, nothing changed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from station import images
from station.cli import main
from tests.faults.images import jpeg_claiming, png_claiming, real_jpeg, real_png

ROOT = Path(__file__).resolve().parents[2]
READ_RSS_LIMIT_MB = 400  # the whole `dicestation read` process (OpenCV alone is ~70 MB)

HOSTILE = {
    "empty": b"",
    "text": b"hello, not an image",
    "png-header-50000x20000": png_claiming(50_000, 20_000),
    "png-header-50000x50000": png_claiming(50_000, 50_000),
    "jpeg-header-50000x20000": jpeg_claiming(50_000, 20_000),
    "jpeg-header-65535x65535": jpeg_claiming(65_535, 65_535),
    "png-header-0x0": png_claiming(0, 0, rows=0),
    "real-png-50000x10": real_png(50_000, 10),
    "real-png-10x5000": real_png(10, 5000),
    "truncated-jpeg": real_jpeg()[:1500],
    "truncated-png": real_png(200, 200)[:60],
    "jpeg-only-soi": b"\xff\xd8",
    "png-only-signature": b"\x89PNG\r\n\x1a\n",
    "gif": b"GIF89a" + b"\x00" * 100,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_decode_image_refuses_with_a_message(name):
    with pytest.raises(images.ImageError) as info:
        images.decode_image(HOSTILE[name])
    message = str(info.value)
    assert message and "\n" not in message and "Traceback" not in message


def test_sizes_are_read_from_headers_without_decoding():
    assert images.image_size(png_claiming(50_000, 20_000)) == (50_000, 20_000)
    assert images.image_size(jpeg_claiming(50_000, 20_000)) == (50_000, 20_000)
    assert images.image_size(real_jpeg(640, 480)) == (640, 480)
    assert images.decode_image(real_jpeg(640, 480)).shape == (480, 640, 3)
    assert images.decode_image(real_png(300, 200)).shape == (200, 300, 3)


def test_the_limit_is_a_parameter():
    with pytest.raises(images.ImageError, match="too large"):
        images.decode_image(real_jpeg(640, 480), max_pixels=100_000)


@given(st.binary(max_size=2000))
@settings(max_examples=300, deadline=None)
def test_random_bytes_never_crash_the_decoder(data):
    try:
        frame = images.decode_image(data)
    except images.ImageError as exc:
        assert str(exc)
    else:  # only a real image passes
        assert frame.ndim == 3 and frame.shape[2] == 3


@given(st.sampled_from([real_jpeg(), real_png(120, 90)]), st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_corrupted_real_images_never_crash_the_decoder(good, data):
    cut = data.draw(st.integers(0, len(good)))
    flips = data.draw(st.lists(st.tuples(st.integers(0, len(good) - 1), st.integers(0, 255)),
                               max_size=8))
    buf = bytearray(good[:cut] if data.draw(st.booleans()) else good)
    for i, b in flips:
        if i < len(buf):
            buf[i] = b
    try:
        images.decode_image(bytes(buf))
    except images.ImageError as exc:
        assert str(exc)


def test_read_command_gives_one_error_line_per_hostile_file(tmp_path, capsys):
    paths = []
    for name, data in sorted(HOSTILE.items()):
        p = tmp_path / f"{name}.png"
        p.write_bytes(data)
        paths.append(str(p))
    good = tmp_path / "good.jpg"
    good.write_bytes(real_jpeg())
    assert main(["read", *paths, str(good)]) == 1
    out = capsys.readouterr()
    lines = [json.loads(x) for x in out.out.strip().splitlines()]
    assert [x["image"] for x in lines] == [*paths, str(good)]
    for line in lines[:-1]:
        assert line["error"] and "dice" not in line, line
    assert "error" not in lines[-1] and "dice" in lines[-1]
    assert "Traceback" not in out.err


def test_read_command_memory_stays_bounded_on_lying_headers(tmp_path):
    """In a fresh process: a header claiming 1e9 px (3 GB decoded, under OpenCV's own 2**30
    limit) is refused before decoding; the process's peak resident memory stays small."""
    files = []
    for name in ("png-header-50000x20000", "jpeg-header-50000x20000", "real-png-50000x10"):
        p = tmp_path / f"{name}.img"
        p.write_bytes(HOSTILE[name])
        files.append(str(p))
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the (big) pytest parent
    code = ("import sys; from station.cli import main; rc = main(['read', *sys.argv[1:]]);"
            "hwm = [x for x in open('/proc/self/status') if x.startswith('VmHWM')][0];"
            "print(int(hwm.split()[1]) // 1024, file=sys.stderr); sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", code, *files], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    lines = [json.loads(x) for x in done.stdout.strip().splitlines()]
    assert len(lines) == 3 and all("error" in x for x in lines)
    assert "too large" in lines[0]["error"] and "too large" in lines[1]["error"]
    assert "too thin" in lines[2]["error"] or "too wide" in lines[2]["error"]
    peak_mb = int(done.stderr.strip().splitlines()[-1])
    assert peak_mb < READ_RSS_LIMIT_MB, f"peak resident {peak_mb} MB"
