#!/bin/bash
# The README driver of the validate stage: runs the shell steps /envforge/steps/<NNN>.sh in
# order, each literally, in ONE container, and records per step its exit code, duration and
# capped output in /envforge/out (steps.tsv: n, exit, ms, output bytes; <NNN>.log).
#
# Each step runs in its own `bash` under `timeout`, with stdin from /dev/null (a prompt gets EOF
# instead of hanging), `set -a` (assignments are exported), and the shell state the previous
# steps left: the working directory and every exported variable (so `cd`, `export`,
# `. .venv/bin/activate` carry over, as in one terminal session; shell functions do not).
#
# On failure: ON_FAILURE=continue (default) runs the remaining steps anyway — one failure does
# not hide what the next steps do, and each error of a README is judged at its own step; `stop`
# ends at the first failing step, like a user who gives up.
#
# Env: START (first working directory), STEP_TIMEOUT (seconds), LOG_CAP (bytes kept per step,
# half head, half tail), ON_FAILURE.
set -u
START=${START:-/src}
STEP_TIMEOUT=${STEP_TIMEOUT:-120}
LOG_CAP=${LOG_CAP:-8192}
ON_FAILURE=${ON_FAILURE:-continue}
OUT=/envforge/out
STATE=/envforge/state
mkdir -p "$OUT" "$STATE"
: > "$OUT/steps.tsv"
cd "$START" || exit 90
export -p > "$STATE/env"
pwd > "$STATE/cwd"

for f in $(ls /envforge/steps/*.sh 2>/dev/null | sort); do
  n=$(basename "$f" .sh)
  log="/tmp/step-$n.log"
  t0=$(date +%s%N)
  timeout -k 5 "$STEP_TIMEOUT" bash -c '
    set -a
    source /envforge/state/env 2>/dev/null
    cd "$(cat /envforge/state/cwd)" 2>/dev/null
    source "$1"
    rc=$?
    pwd > /envforge/state/cwd.next
    export -p > /envforge/state/env.next
    exit $rc
  ' step "$f" < /dev/null > "$log" 2>&1
  rc=$?
  t1=$(date +%s%N)
  if [ -f "$STATE/env.next" ]; then mv "$STATE/env.next" "$STATE/env"; mv "$STATE/cwd.next" "$STATE/cwd"; fi
  bytes=$(stat -c %s "$log")
  if [ "$bytes" -gt "$LOG_CAP" ]; then
    half=$((LOG_CAP / 2))
    { head -c "$half" "$log"; printf '\n[... %s bytes cut ...]\n' $((bytes - 2 * half)); tail -c "$half" "$log"; } > "$OUT/$n.log"
  else
    cp "$log" "$OUT/$n.log"
  fi
  printf '%s\t%s\t%s\t%s\n' "$n" "$rc" $(((t1 - t0) / 1000000)) "$bytes" >> "$OUT/steps.tsv"
  if [ "$rc" -ne 0 ] && [ "$ON_FAILURE" = stop ]; then break; fi
done
exit 0
