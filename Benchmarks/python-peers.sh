#!/usr/bin/env bash
# Creates (once) the virtual environment with the Python peers the benchmarks time in the same run:
# scikit-learn (BallTree with the haversine metric) and reverse_geocoder 1.5.1. Prints the
# environment's python, or nothing (and a reason on standard error) when Python or pip is missing.
#   Benchmarks/python-peers.sh [DIR]   (default .build/python-peers)
set -uo pipefail
cd "$(dirname "$0")/.."
venv="${1:-.build/python-peers}"
if [[ ! -x "$venv/bin/python" ]]; then
    command -v python3 >/dev/null 2>&1 || { echo "python3 is missing: Python peers skipped" >&2; exit 0; }
    python3 -m venv "$venv" >&2 || { echo "cannot create a virtual environment (apt-get install python3-venv)" >&2; exit 0; }
fi
if ! "$venv/bin/python" -c 'import sklearn, reverse_geocoder' 2>/dev/null; then
    "$venv/bin/pip" install --quiet scikit-learn 'reverse_geocoder==1.5.1' >&2 \
        || { echo "pip could not install scikit-learn and reverse_geocoder: Python peers skipped" >&2; exit 0; }
fi
echo "$PWD/$venv/bin/python"
