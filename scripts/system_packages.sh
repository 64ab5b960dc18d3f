#!/usr/bin/env bash
# Debian packages the test suite uses beyond Python: headless Chromium and its
# driver (browser tests), Mosquitto (the MQTT hall-of-tables tests), and
# systemd-analyze (the unit test). Installed only when missing and when we are
# root; otherwise the tests that need them skip and say why.
set -uo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: missing ${need[*]}; the tests that need them will skip" >&2
    exit 0
fi
echo "installing ${need[*]} (Debian packages)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 || echo "note: could not install ${need[*]}" >&2
exit 0
