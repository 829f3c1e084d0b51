#!/usr/bin/env bash
# EnvBench's deterministic Python setup, reproduced from its description
# (../shared/reference/envbench.md): the first matching file in the repository root decides;
# no Python version is chosen (whatever `python` comes first on PATH). Sourced by the driver,
# so the environment it activates is the one the metric resolves imports against.

# EnvBench's "nothing to set up" code. An exit status is one byte, so `exit 444` arrives as
# 188: the driver reads ENVFORGE_EXIT to record the 444 that was meant.
nothing_to_install() {
  echo "envforge: $1" >&2
  ENVFORGE_EXIT=444
  exit 444
}

install_dependencies() {
  local reqs=()
  for f in *requirements*.txt; do [ -f "$f" ] && reqs+=("$f"); done
  if [ ${#reqs[@]} -gt 0 ]; then
    for r in "${reqs[@]}"; do
      python -m pip install -r "$r" || exit $?
    done
  elif [ -f setup.py ] || [ -f pyproject.toml ] || [ -f setup.cfg ]; then
    python -m pip install -e . || exit $?
  elif [ -f Pipfile ]; then
    pipenv install --deploy || exit $?
  else
    nothing_to_install "nothing to install"
  fi
}

if [ -f environment.yml ]; then
  conda env create -f environment.yml || exit $?
  env_name=$(sed -n 's/^name:[[:space:]]*//p' environment.yml | head -n1)
  eval "$(conda shell.bash hook)" && conda activate "${env_name:-base}" || exit $?
  install_dependencies
elif [ -f uv.lock ]; then
  uv venv || exit $?
  source .venv/bin/activate
  uv pip install -r requirements.txt || exit $?
elif [ -f poetry.lock ]; then
  poetry install -n --no-root --all-groups --all-extras || exit $?
  venv_python=$(poetry run which python) || { echo "envforge: poetry created no environment" >&2; exit 1; }
  [ -n "$venv_python" ] || exit 1
  source "$(dirname "$venv_python")/activate"
elif [ -f pyproject.toml ]; then
  install_dependencies
elif [ -f requirements.txt ] || [ -f Pipfile ] || [ -f setup.py ]; then
  install_dependencies
else
  nothing_to_install "no dependency file in the repository root"
fi
