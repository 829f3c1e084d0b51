#!/usr/bin/env bash
# The baseline driver inside the sandbox: run the deterministic setup script for the family,
# then the metric in the environment the script left behind. Results go to /envforge/out.
#   usage: run-baseline.sh python|jvm [SETUP_SCRIPT]
# SETUP_SCRIPT (default /envforge/<family>-setup.sh) is sourced as the setup: the evaluate stage
# passes a benchmark's script, the rollout session-env.sh (the agent's saved shell state).
family=$1
setup=${2:-/envforge/$family-setup.sh}
out=/envforge/out
mkdir -p "$out"
cd /repo || exit 90

# Phase 1: setup, sourced in a child shell whose EXIT trap saves the exit code and the
# environment (PATH, venv, JAVA_HOME) for the metric, however the script ends (`exit 444` too).
bash -c '
  save() {
    rc=$?
    # `exit 444` arrives as 188 (one byte); the setup script says when it meant 444.
    [ "$rc" = 188 ] && [ "${ENVFORGE_EXIT:-}" = 444 ] && rc=444
    { printf "SETUP_EXIT=%q\n" "$rc"
      printf "PATH=%q\n" "$PATH"
      printf "VIRTUAL_ENV=%q\n" "${VIRTUAL_ENV:-}"
      printf "JAVA_HOME=%q\n" "${JAVA_HOME:-}"
      printf "PYTHON=%q\n" "$(command -v python || true)"
    } > /envforge/out/state
  }
  trap save EXIT
  cd /repo && source "$0"
' "$setup" 2>&1 | tee "$out/setup.log"

source "$out/state"
export PATH VIRTUAL_ENV JAVA_HOME
echo "envforge: setup exited with $SETUP_EXIT"
[ "$SETUP_EXIT" = 0 ] || exit 0

# Phase 2: the metric (EnvBench's: pyright missing imports; JVM compile errors).
if [ "$family" = python ]; then
  pyright /repo --level error --outputjson --pythonpath "${PYTHON:-python}" > "$out/pyright.json" 2> "$out/metric.err"
  echo "METRIC_EXIT=$?" > "$out/metric"
else
  if [ -f gradlew ]; then tool=gradlew; chmod +x gradlew; cmd=(./gradlew build -x test --console=plain)
  elif [ -f build.gradle ] || [ -f build.gradle.kts ]; then tool=gradle; cmd=(gradle build -x test --console=plain)
  elif [ -f mvnw ]; then tool=mvnw; chmod +x mvnw; cmd=(./mvnw compile -DskipTests -B)
  elif [ -f pom.xml ]; then tool=maven; cmd=(mvn compile -DskipTests -B)
  else tool=none; cmd=(false)
  fi
  "${cmd[@]}" > "$out/build.log" 2>&1 </dev/null
  rc=$?
  tail -n 40 "$out/build.log"
  printf 'METRIC_EXIT=%s\nBUILD_TOOL=%s\n' "$rc" "$tool" > "$out/metric"
fi
