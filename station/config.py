"""The station's config: one TOML file, validated at start, with defaults.

Every key is documented in `station/data/example.toml`. Unknown keys and bad
values are rejected with the key's dotted name (`camera.kind: ...`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from station.errors import ConfigError
from station.storage import StorageLimits

CAMERA_KINDS = ("pi", "opencv", "replay")
READERS = ("vision", "labels")


@dataclass(frozen=True)
class CameraConfig:
    kind: str = "replay"  # pi | opencv | replay
    folder: str = ""  # replay: folder of recorded images ("" = the bundled demo session)
    loop: bool = False  # replay: start again after the last image
    device: int = 0  # opencv: the VideoCapture index
    width: int = 2028
    height: int = 1520
    buffer_count: int = 3  # pi: 2-3, so a frame after the press is always available
    settle_s: float = 1.5  # pi: let exposure and white balance settle, then lock them
    lens_position: float = 2.0  # pi (Camera Module 3): fixed focus, dioptres (1/m)
    timeout_s: float = 5.0  # a capture slower than this is a camera error


@dataclass(frozen=True)
class ReadConfig:
    reader: str = "vision"  # vision | labels (labels: recorded sessions' own labels)
    still_frames: int = 2  # consecutive frames that must agree before reading
    still_timeout_s: float = 3.0  # give up waiting for the dice to lie still
    still_max_diff: float = 3.0  # mean absolute grey difference (0-255) that counts as still
    same_place_px: float = 6.0  # a die within this of last read's die, same value: not thrown
    jpeg_quality: int = 85


@dataclass(frozen=True)
class ButtonConfig:
    enabled: bool = False
    pin: int = 17  # BCM number; the button connects it to ground
    bounce_s: float = 0.05
    led_pin: int = -1  # status LED (BCM); -1 = none


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    gm_token: str = ""  # "" = from DICESTATION_GM_TOKEN, else generated and printed at start
    # waitress threads. Each open live page (SSE stream) holds one for as long as it is open:
    # a table screen, the GM, a dozen phones and a hall scoreboard, with room to spare.
    # station.server keeps API_RESERVE_THREADS of them for API calls. An idle thread costs
    # little resident memory (docs/benchmarks.md).
    threads: int = 64


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class TableConfig:
    # Seat zones in seat order: the i-th player of a game sits at the i-th zone
    # (or at the zone with the player's name). Empty: the frame is split into
    # equal vertical strips, left to right, one per player.
    zones: tuple[Zone, ...] = ()
    # Dados Centrales colour roles: body colours of the dice as the reader names them.
    central_colour: str = "red"
    house_colour: str = "green"
    bettor_colour: str = "blue"


@dataclass(frozen=True)
class MqttConfig:
    enabled: bool = False  # publish every stored event to an MQTT broker (a hall of tables)
    host: str = "localhost"
    port: int = 1883
    table: str = "table1"  # this table's name in the topics: dicestation/<table>/events
    prefix: str = "dicestation"


@dataclass(frozen=True)
class Config:
    data: str = "~/.local/share/dicestation"
    camera: CameraConfig = field(default_factory=CameraConfig)
    read: ReadConfig = field(default_factory=ReadConfig)
    button: ButtonConfig = field(default_factory=ButtonConfig)
    web: WebConfig = field(default_factory=WebConfig)
    table: TableConfig = field(default_factory=TableConfig)
    storage: StorageLimits = field(default_factory=StorageLimits)
    mqtt: MqttConfig = field(default_factory=MqttConfig)

    @property
    def data_dir(self) -> Path:
        return Path(self.data).expanduser()


def _check(cls: type, section: dict[str, Any], where: str) -> dict[str, Any]:
    known = {f.name: f for f in fields(cls)}
    out = {}
    for key, value in section.items():
        name = f"{where}.{key}" if where else key
        if key not in known:
            raise ConfigError(f"{name}: unknown key (known: {', '.join(known)})")
        default = getattr(cls(), key)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif isinstance(default, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            value = float(value) if ok else value
        elif isinstance(default, str):
            ok = isinstance(value, str)
        else:
            ok = True
        if not ok:
            raise ConfigError(f"{name}: expected {type(default).__name__}, got {value!r}")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0 and key not in ("led_pin",):
            raise ConfigError(f"{name}: must not be negative, got {value!r}")
        out[key] = value
    return out


def _zones(raw: Any) -> tuple[Zone, ...]:
    if not isinstance(raw, list):
        raise ConfigError("table.zones: expected a list of {name, polygon} tables")
    zones = []
    for i, z in enumerate(raw):
        where = f"table.zones[{i}]"
        if not isinstance(z, dict) or set(z) != {"name", "polygon"}:
            raise ConfigError(f"{where}: expected exactly the keys name and polygon")
        if not isinstance(z["name"], str) or not z["name"]:
            raise ConfigError(f"{where}.name: expected a non-empty string")
        poly = z["polygon"]
        if (
            not isinstance(poly, list)
            or len(poly) < 3
            or not all(
                isinstance(p, list) and len(p) == 2
                and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in p)
                for p in poly
            )
        ):
            raise ConfigError(f"{where}.polygon: expected 3 or more [x, y] points")
        zones.append(Zone(z["name"], tuple((float(x), float(y)) for x, y in poly)))
    if len({z.name for z in zones}) != len(zones):
        raise ConfigError("table.zones: two zones have the same name")
    return tuple(zones)


def parse_config(raw: dict[str, Any]) -> Config:
    """A Config from parsed TOML; ConfigError names the first bad key."""
    sections = {"camera": CameraConfig, "read": ReadConfig, "button": ButtonConfig,
                "web": WebConfig, "table": TableConfig, "storage": StorageLimits,
                "mqtt": MqttConfig}
    top = {}
    for key, value in raw.items():
        if key == "data":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"data: expected a folder name, got {value!r}")
            top["data"] = value
        elif key in sections:
            if not isinstance(value, dict):
                raise ConfigError(f"{key}: expected a table [{key}]")
            section = dict(value)
            zones = section.pop("zones", None) if key == "table" else None
            checked = _check(sections[key], section, key)
            if zones is not None:
                checked["zones"] = _zones(zones)
            top[key] = sections[key](**checked)
        else:
            raise ConfigError(f"{key}: unknown key (known: data, {', '.join(sections)})")
    cfg = Config(**top)
    if cfg.camera.kind not in CAMERA_KINDS:
        raise ConfigError(f"camera.kind: expected one of {', '.join(CAMERA_KINDS)}, got {cfg.camera.kind!r}")
    if cfg.read.reader not in READERS:
        raise ConfigError(f"read.reader: expected one of {', '.join(READERS)}, got {cfg.read.reader!r}")
    if cfg.read.still_frames < 1:
        raise ConfigError("read.still_frames: must be at least 1")
    if not 1 <= cfg.read.jpeg_quality <= 100:
        raise ConfigError("read.jpeg_quality: must be 1-100")
    if not 1 <= cfg.camera.buffer_count <= 8:
        raise ConfigError("camera.buffer_count: must be 1-8")
    if not 0 <= cfg.web.port < 65536:
        raise ConfigError("web.port: must be 0-65535 (0: any free port)")
    if not 0 < cfg.mqtt.port < 65536:
        raise ConfigError("mqtt.port: must be 1-65535")
    if cfg.mqtt.enabled and not cfg.mqtt.host:
        raise ConfigError("mqtt.host: the broker's host name is needed when mqtt.enabled")
    return cfg


def load_config(path: str | Path | None = None, **overrides: Any) -> Config:
    """The config from a TOML file (or the defaults), with top-level overrides (e.g. data=)."""
    raw: dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, "rb") as fh:
                raw = tomllib.load(fh)
        except OSError as exc:
            raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config {path} is not valid TOML: {exc}") from None
    cfg = parse_config(raw)
    return replace(cfg, **{k: v for k, v in overrides.items() if v is not None})
