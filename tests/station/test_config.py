"""The config: defaults, the documented example, and bad keys named."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.config import Config, load_config
from station.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[2] / "station" / "data" / "example.toml"


def test_the_documented_example_is_the_defaults():
    assert load_config(EXAMPLE) == Config()


def test_zones_and_overrides(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('[camera]\nkind = "opencv"\n[[table.zones]]\nname = "a"\n'
                 'polygon = [[0, 0], [10, 0], [10, 10]]\n')
    cfg = load_config(f, data=str(tmp_path))
    assert cfg.camera.kind == "opencv" and cfg.table.zones[0].polygon[1] == (10.0, 0.0)
    assert cfg.data_dir == tmp_path


@pytest.mark.parametrize("text, key", [
    ("colour = 1\n", "colour: unknown key"),
    ("[camera]\nkin = 'pi'\n", "camera.kin: unknown key"),
    ("[camera]\nkind = 'usb'\n", "camera.kind: expected one of"),
    ("[camera]\nwidth = 'big'\n", "camera.width: expected int"),
    ("[button]\nenabled = 1\n", "button.enabled: expected bool"),
    ("[read]\nstill_timeout_s = -1\n", "read.still_timeout_s: must not be negative"),
    ("[read]\njpeg_quality = 101\n", "read.jpeg_quality"),
    ("[web]\nport = 70000\n", "web.port"),
    ("camera = 3\n", "camera: expected a table"),
    ("[[table.zones]]\nname = 'a'\npolygon = [[0, 0]]\n", "table.zones[0].polygon"),
    ("[[table.zones]]\nname = 'a'\n", "table.zones[0]"),
    ("[camera\n", "not valid TOML"),
])
def test_bad_config_names_the_key(tmp_path, text, key):
    f = tmp_path / "c.toml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
        load_config(f)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "nope.toml")
