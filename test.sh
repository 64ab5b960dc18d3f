#!/usr/bin/env bash
# Run the whole test suite (lint + tests), installing what it needs first.
set -euo pipefail
cd "$(dirname "$0")"
scripts/bootstrap.sh test
scripts/system_packages.sh
.venv/bin/ruff check .
exec .venv/bin/python -m pytest "$@"
