#!/usr/bin/env bash
# Make (or refresh) the project's virtual environment in .venv and install the
# project into it. Used by run.sh and test.sh; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv ${VENV_FLAGS:-} .venv
fi
stamp=".venv/.installed${extra:+-$extra}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    # constraints.txt: the versions the figures were measured with
    .venv/bin/python -m pip install --quiet -c constraints.txt -e ".${extra:+[$extra]}"
    touch "$stamp"
fi
