"""Browser tests: Debian's headless Chromium driven by Selenium, against a demo station."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
TOKEN = "e2e-token"
# Screenshots go to a temporary folder; to refresh the README's pictures run
#   DICESTATION_SHOTS_DIR=docs/screenshots ./test.sh tests/e2e
SHOTS = Path(os.environ.get("DICESTATION_SHOTS_DIR") or Path(tempfile.gettempdir()) / "dicestation-shots")

if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
    pytest.skip("chromium and chromedriver are not installed", allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`dicestation demo` on a free port with a fresh data folder."""
    port = free_port()
    data = tmp_path_factory.mktemp("demo-data")
    env = dict(os.environ, DICESTATION_GM_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "station.cli", "demo", "--port", str(port),
                             "--data", str(data)], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/api/state", timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the demo station did not start: " + proc.stdout.read()) from None
            time.sleep(0.2)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    proc.stdout.close()


def make_driver(tmp_path, width=1280, height=900):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={tmp_path}",
                 f"--window-size={width},{height}", "--lang=en-US"):
        opts.add_argument(flag)
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    drv.set_page_load_timeout(30)
    return drv


@pytest.fixture
def browser(tmp_path):
    drv = make_driver(tmp_path / "profile-a")
    yield drv
    drv.quit()


@pytest.fixture
def second_browser(tmp_path):
    drv = make_driver(tmp_path / "profile-b", 1280, 900)
    yield drv
    drv.quit()


def shot(driver, name: str) -> Path:
    """A PNG of the page for the README (kept small: under 200 KB)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    if path.stat().st_size > 200_000 and shutil.which("pngquant") is None:
        import cv2

        img = cv2.imread(str(path))
        h, w = img.shape[:2]
        cv2.imwrite(str(path), cv2.resize(img, (w * 3 // 4, h * 3 // 4), interpolation=cv2.INTER_AREA),
                    [cv2.IMWRITE_PNG_COMPRESSION, 9])
    return path
