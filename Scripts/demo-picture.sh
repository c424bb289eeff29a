#!/usr/bin/env bash
# Regenerates the README's picture: the demo's story map, written to Documentation/.
set -euo pipefail
cd "$(dirname "$0")/.."
swift run meridian-demo --output Documentation/meridian-demo.svg >/dev/null
echo "wrote Documentation/meridian-demo.svg"
