#!/usr/bin/env bash
# Make the Debian base image of every envforge sandbox without any container registry:
# debootstrap a minimal bookworm into a folder and `docker import` it. Registries (Docker Hub)
# are unreachable on the machines we build on; Debian's package mirror is not.
#   usage: sandboxes/bootstrap-base.sh [IMAGE_NAME]   (default envforge/base:bookworm)
set -euo pipefail
name="${1:-envforge/base:bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if docker image inspect "$name" >/dev/null 2>&1; then
  echo "base image $name exists"
  exit 0
fi
command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install -y debootstrap" >&2; exit 3; }
[ "$(id -u)" = 0 ] || { echo "debootstrap needs root" >&2; exit 3; }

root="$(mktemp -d /tmp/envforge-base.XXXXXX)"
trap 'rm -rf "$root"' EXIT
echo "debootstrap bookworm into $root (about a minute)"
debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "$mirror" >/tmp/envforge-debootstrap.log 2>&1 || {
  tail -20 /tmp/envforge-debootstrap.log >&2
  exit 3
}
# Leave apt usable inside images: the same mirror, no recommends, no caches in layers.
echo "deb $mirror bookworm main" > "$root/etc/apt/sources.list"
printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' > "$root/etc/apt/apt.conf.d/90envforge"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | docker import \
  --change 'ENV LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/bash"]' - "$name"
echo "base image $name imported"
