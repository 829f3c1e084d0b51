#!/usr/bin/env bash
# The "setup" the metric driver (run-baseline.sh) sources after a rollout: the agent's saved
# shell state (agent-shell.sh), so the metric resolves imports against the interpreter, virtualenv
# and JAVA_HOME the agent left active, as EnvBench's metric does after a setup script.
# shellcheck disable=SC1091
[ -f /envforge/session/env ] && source /envforge/session/env >/dev/null 2>&1
cd /repo || return 90
true
