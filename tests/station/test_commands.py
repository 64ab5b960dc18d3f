"""`dicestation demo` serves the bundled session: a game is started, reads come by the API."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request


def test_demo_serves_reads_and_photos(tmp_path):
    env = dict(os.environ, DICESTATION_GM_TOKEN="t", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "station.cli", "demo", "--port", "0", "--data", str(tmp_path)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env=env,
    )
    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, "demo exited"
            m = re.search(r"serving on (http://\S+?)/$", line.strip())
            url = m.group(1) if m else None
        state = json.loads(urllib.request.urlopen(url + "/api/state", timeout=10).read())
        assert state["game"] == "red_mans_throw" and state["players"] == ["Ana", "Bruno"]
        req = urllib.request.Request(url + "/api/read", data=b"{}", method="POST",
                                     headers={"Authorization": "Bearer t"})
        with urllib.request.urlopen(req, timeout=30) as resp:
            read = json.loads(resp.read())["read"]
        assert read["status"] == "stored" and len(read["dice"]) == 3  # the vision reader read them
        with urllib.request.urlopen(url + read["annotated"], timeout=10) as resp:
            assert resp.headers["Content-Type"] == "image/jpeg"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stdout.close()
    assert proc.returncode == 0
