#!/usr/bin/env bash
# Install dicestation as an appliance on Raspberry Pi OS (Bookworm or later).
# Idempotent: run it again after `git pull` to update; it keeps your config,
# your GM token and your data.
#
#   sudo systemd/install.sh            # install or update, enable and start
#   sudo systemd/install.sh --no-start # install and enable, start at next boot
#
# Testing aids: --root DIR puts every path under DIR and skips apt, useradd
# and systemctl (used by the test suite on a laptop).
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
ROOT=""
START=1
APT=1
SYSTEMCTL=1
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT="$2"; APT=0; SYSTEMCTL=0; shift 2 ;;
        --no-start) START=0; shift ;;
        --no-apt) APT=0; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

USER_NAME="${DICESTATION_USER:-dicestation}"
PREFIX="$ROOT/opt/dicestation"
ETC="$ROOT/etc/dicestation"
DATA="$ROOT/var/lib/dicestation"
UNIT_DIR="$ROOT/etc/systemd/system"

say() { printf '==> %s\n' "$*"; }

if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo systemd/install.sh)" >&2
    exit 1
fi

# 1. System packages: picamera2 and libcamera come from Raspberry Pi OS, not
#    from PyPI; lgpio is the GPIO backend a Pi 5 needs.
if [ "$APT" = 1 ]; then
    say "system packages (python3-picamera2, python3-lgpio, python3-venv)"
    apt-get update -qq
    apt-get install -y -qq python3-venv python3-picamera2 python3-lgpio python3-opencv >/dev/null
fi

# 2. A dedicated user in the video (camera) and gpio (button) groups.
if [ -z "$ROOT" ]; then
    if ! id "$USER_NAME" >/dev/null 2>&1; then
        say "user $USER_NAME"
        useradd --system --home-dir "$DATA" --shell /usr/sbin/nologin "$USER_NAME"
    fi
    for group in video gpio; do
        getent group "$group" >/dev/null && usermod -aG "$group" "$USER_NAME"
    done
fi

# 3. The code and its virtual environment (with the system's picamera2 visible).
say "code in $PREFIX"
mkdir -p "$PREFIX" "$ETC" "$DATA" "$UNIT_DIR"
if [ "$SRC" != "$PREFIX" ]; then
    tar -C "$SRC" --exclude=.venv --exclude=.git --exclude='__pycache__' -cf - . | tar -C "$PREFIX" -xf -
fi
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
if [ -z "$ROOT" ] || [ "${DICESTATION_INSTALL_PIP:-0}" = 1 ]; then
    "$PREFIX/.venv/bin/python" -m pip install --quiet --upgrade pip
    # [pi]: a simplejpeg built for the venv's numpy 2, ahead of the system's one (built for
    # Bookworm's numpy 1.24, it makes `import picamera2` fail: station/picamera.py).
    # constraints.txt pins versions with wheels for 64-bit ARM and x86-64; a 32-bit OS takes
    # what piwheels has.
    pins=()
    case "$(uname -m)" in aarch64|arm64|x86_64) pins=(-c "$PREFIX/constraints.txt") ;; esac
    "$PREFIX/.venv/bin/python" -m pip install --quiet "${pins[@]}" "$PREFIX[pi]"
fi

# 4. Config and environment: written once, never overwritten.
if [ ! -f "$ETC/dicestation.toml" ]; then
    say "config $ETC/dicestation.toml (edit it, then: sudo systemctl restart dicestation)"
    sed -e "s#@DATA@#${DATA#"$ROOT"}#g" "$SRC/systemd/dicestation.toml" > "$ETC/dicestation.toml"
fi
if [ ! -f "$ETC/environment" ]; then
    token="$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')"
    {
        echo "# Read by systemd (EnvironmentFile). Keep it private: it holds the GM token."
        echo "DICESTATION_GM_TOKEN=$token"
        if grep -qs "Raspberry Pi 5" "$ROOT/proc/device-tree/model" /proc/device-tree/model 2>/dev/null; then
            echo "# A Pi 5 needs the lgpio backend; without it gpiozero may pick one that crashes."
            echo "GPIOZERO_PIN_FACTORY=lgpio"
        fi
    } > "$ETC/environment"
    chmod 600 "$ETC/environment"
    say "GM token written to $ETC/environment"
fi

# 5. The unit.
say "unit $UNIT_DIR/dicestation.service"
sed -e "s#@PREFIX@#${PREFIX#"$ROOT"}#g" -e "s#@USER@#$USER_NAME#g" \
    -e "s#@ETC@#${ETC#"$ROOT"}#g" -e "s#@DATA@#${DATA#"$ROOT"}#g" \
    "$SRC/systemd/dicestation.service" > "$UNIT_DIR/dicestation.service"
if [ -z "$ROOT" ]; then
    chown -R "$USER_NAME:$USER_NAME" "$DATA"
    chown root:"$USER_NAME" "$ETC/environment"
    chmod 640 "$ETC/environment"
fi
if [ "$SYSTEMCTL" = 1 ]; then
    systemctl daemon-reload
    systemctl enable dicestation.service >/dev/null
    if [ "$START" = 1 ]; then
        systemctl restart dicestation.service
        say "started: journalctl -u dicestation -f   (then open http://$(hostname).local:8080)"
    fi
fi
say "done. Check the hardware with: sudo -u $USER_NAME $PREFIX/.venv/bin/dicestation doctor --config ${ETC#"$ROOT"}/dicestation.toml"
