#!/bin/bash
# SetupBench's reproduction of a dependency conflict (appendix C.2), run by the `reproduce`
# stage in the ecosystem's sandbox on a copy of the repository at its base commit:
#   /envforge/steps/install-NN.sh  the ecosystem's install commands, run in order in /repo
#   /envforge/steps/escape.sh      the escape hatch (e.g. npm --legacy-peer-deps), run on a
#                                  pristine copy when an install command failed (or always,
#                                  with ENVFORGE_ALWAYS_ESCAPE=1)
# Each step's output goes to /envforge/out/<step>.log (and the container log); its exit code
# to /envforge/out/exits as `<step>=<code>` (124: killed at ENVFORGE_STEP_TIMEOUT seconds).
set -u
out=/envforge/out
mkdir -p "$out"
: > "$out/exits"
step_timeout="${ENVFORGE_STEP_TIMEOUT:-900}"
if [ -f /envforge/steps/escape.sh ]; then cp -a /repo /envforge/pristine; fi

run_step() {
  local name=$1 dir=$2 code
  echo "envforge: [$name] \$ $(cat "/envforge/steps/$name.sh")"
  (cd "$dir" && timeout -k 10 "$step_timeout" bash "/envforge/steps/$name.sh") > "$out/$name.log" 2>&1 < /dev/null
  code=$?
  cat "$out/$name.log"
  echo "$name=$code" >> "$out/exits"
  echo "envforge: [$name] exit $code"
  return $code
}

failed=0
for f in $(ls /envforge/steps | grep '^install-' | sort); do
  run_step "${f%.sh}" /repo || failed=1
done
if [ -f /envforge/steps/escape.sh ] && { [ "$failed" = 1 ] || [ "${ENVFORGE_ALWAYS_ESCAPE:-0}" = 1 ]; }; then
  run_step escape /envforge/pristine || true
fi
exit 0
