#!/usr/bin/env bash
# Prints the code block between "<!-- BEGIN NAME" and "<!-- END NAME -->" of docs/editors.md,
# without its ``` fences, so the editor tests run the setup exactly as documented.
set -euo pipefail
name=${1:?usage: extract.sh NAME}
doc="$(cd "$(dirname "$0")/../../.." && pwd)/docs/editors.md"
awk -v name="$name" '
  index($0, "<!-- BEGIN " name) == 1 { on = 1; next }
  index($0, "<!-- END " name) == 1 { on = 0 }
  on && /^```/ { next }
  on { print; n++ }
  END { if (n == 0) { print "extract.sh: no block " name " in docs/editors.md" > "/dev/stderr"; exit 1 } }
' "$doc"
