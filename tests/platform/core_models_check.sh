#!/bin/bash
# The core library (platform/) must not depend on the models library, which
# depends on it: no symbol the core leaves undefined may be one the models
# define. Usage: core_models_check.sh LIBTESSERA_CORE.a LIBTESSERA_MODELS.a
set -euo pipefail
core=$1 models=$2
undefined=$(nm -C --undefined-only "$core" | sed -n 's/^ *U //p' | sort -u)
defined=$(nm -C --defined-only "$models" | awk '$2 ~ /^[TWDBRV]$/ { $1 = ""; $2 = ""; print substr($0, 3) }' | sort -u)
both=$(comm -12 <(echo "$undefined") <(echo "$defined") | grep '^tessera::' || true)
if [[ -n $both ]]; then
  echo "the core library uses symbols of the models library:" >&2
  echo "$both" >&2
  exit 1
fi
echo "core uses no symbol of models ($(echo "$undefined" | wc -l) undefined symbols checked)"
