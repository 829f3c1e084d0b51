#!/usr/bin/env bash
# One command of an agent's shell in a long-lived sandbox (the rollout stage's run_shell tool).
# Each command is its own `docker exec`, so the shell state an agent expects to keep — exported
# variables, an activated virtualenv, the working directory — is saved after every command and
# restored before the next one (/envforge/session/). session-env.sh restores it for the metric.
#   usage: agent-shell.sh 'COMMAND LINE'
state=/envforge/session
mkdir -p "$state"
# shellcheck disable=SC1091
[ -f "$state/env" ] && source "$state/env" >/dev/null 2>&1
cd "$(cat "$state/cwd" 2>/dev/null || echo /repo)" 2>/dev/null || cd /repo
save() {
  rc=$?
  export -p | grep -v -E '^declare -x (PWD|OLDPWD|SHLVL|_)=' > "$state/env.tmp" && mv "$state/env.tmp" "$state/env"
  pwd > "$state/cwd"
  exit "$rc"
}
trap save EXIT
exec 2>&1 </dev/null
eval "$1"
