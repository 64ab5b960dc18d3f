#!/usr/bin/env bash
# Run the station. With no camera it plays the bundled recorded session.
set -euo pipefail
cd "$(dirname "$0")"
scripts/bootstrap.sh
exec .venv/bin/dicestation demo "$@"
