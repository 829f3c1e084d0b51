#!/usr/bin/env bash
# Make a Docker engine available: use the one that answers, else (as root, on Debian) install
# docker.io from Debian's packages and start dockerd in the background, then wait for it.
set -euo pipefail
if docker info >/dev/null 2>&1; then exit 0; fi
if [ -n "${DOCKER_HOST:-}" ]; then
  echo "DOCKER_HOST=$DOCKER_HOST does not answer: start that engine or unset DOCKER_HOST" >&2
  exit 3
fi
[ "$(id -u)" = 0 ] || { echo "no Docker engine, and installing one needs root: start dockerd or set DOCKER_HOST" >&2; exit 3; }
if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
  echo "installing docker.io and debootstrap from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null
fi
echo "starting dockerd (log: /tmp/envforge-dockerd.log)"
nohup dockerd >/tmp/envforge-dockerd.log 2>&1 &
for _ in $(seq 1 60); do
  docker info >/dev/null 2>&1 && { echo "Docker engine is up"; exit 0; }
  sleep 1
done
echo "dockerd did not come up within 60 s; see /tmp/envforge-dockerd.log" >&2
tail -20 /tmp/envforge-dockerd.log >&2
exit 3
