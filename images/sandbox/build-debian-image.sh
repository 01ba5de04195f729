#!/usr/bin/env bash
# Build the local sandbox image (Debian bookworm + bash coreutils findutils git patch nodejs
# ripgrep python3 python3-pytest ca-certificates util-linux procps) without any container
# registry. Same tool set as images/sandbox/Dockerfile (for machines with a real Docker and a
# registry); keep the two in sync. util-linux provides `setsid`, which the Docker adapter uses
# to run each command in its own session; procps provides `ps`/`pkill`.
#
# Run by .ci/start-podman.sh (CI) on a clean checkout; adapted from the team's shared tool.
#
# The rootfs is bootstrapped with mmdebstrap from the Debian mirror that apt on this
# machine already uses (read from /etc/apt/sources.list.d/*.sources or
# /etc/apt/sources.list) and imported with `podman import` (or `docker import`).
#
# Idempotent: does nothing if the image already exists (FORCE=1 rebuilds).
#
# Environment:
#   SANDBOX_IMAGE  image name            (default: localhost/sandkit-sandbox:bookworm)
#   METHOD         extract | minbase     (default: extract)
#       extract: unpack the .debs only (no maintainer scripts) + a few fix-ups; ~25-30 s,
#                ~175 MB. No dpkg database in the image (no apt/dpkg -l inside).
#       minbase: full `mmdebstrap --variant=minbase` with dpkg configuration; ~90 s,
#                ~220 MB; dpkg works inside the image (apt too, once a sources.list is added).
#   ENGINE         podman | docker       (default: podman; docker = docker CLI, e.g. with
#                                         DOCKER_HOST=unix:///tmp/podman.sock)
#   EXTRA_PACKAGES space separated extra Debian packages to include
#   FORCE=1        rebuild even if the image exists
#   KEEP_TAR=path  also keep the rootfs tarball at this path
#
# Requires root (mmdebstrap root mode, chroot). Installs mmdebstrap with apt-get if missing.
set -Eeuo pipefail

IMAGE=${SANDBOX_IMAGE:-localhost/sandkit-sandbox:bookworm}
METHOD=${METHOD:-extract}
ENGINE=${ENGINE:-podman}
SUITE=bookworm
PACKAGES="bash coreutils findutils git patch ripgrep python3 python3-pytest nodejs ca-certificates util-linux procps ${EXTRA_PACKAGES:-}"
# the extract variant installs nothing implicitly, so name the base tools explicitly
BASE_EXTRACT="base-files base-passwd dash libc-bin sed grep gzip tar mawk diffutils procps ncurses-base sensible-utils"

step="startup"
die() { echo "build-sandbox-image: ERROR: $*" >&2; exit 1; }
trap 'echo "build-sandbox-image: ERROR: step \"$step\" failed (line $LINENO, exit $?)" >&2' ERR
log() { printf 'build-sandbox-image: [%5ss] %s\n' "$SECONDS" "$*" >&2; }

# ---- preflight --------------------------------------------------------------------
step="preflight"
[ "$(id -u)" = 0 ] || die "must run as root (mmdebstrap root mode + chroot)"
case "$METHOD" in extract|minbase) ;; *) die "METHOD must be extract or minbase, got '$METHOD'";; esac
case "$ENGINE" in podman|docker) ;; *) die "ENGINE must be podman or docker, got '$ENGINE'";; esac
command -v "$ENGINE" >/dev/null || die "$ENGINE not found (apt-get install podman runc)"

image_exists() {
  if [ "$ENGINE" = podman ]; then podman image exists "$IMAGE"
  else docker image inspect "$IMAGE" >/dev/null 2>&1; fi
}
if [ -z "${FORCE:-}" ] && image_exists; then
  log "image $IMAGE already exists; nothing to do (FORCE=1 to rebuild)"
  exit 0
fi

if ! command -v mmdebstrap >/dev/null; then
  step="install mmdebstrap"
  log "installing mmdebstrap"
  command -v apt-get >/dev/null || die "mmdebstrap missing and no apt-get to install it"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null; } \
    || die "apt-get install mmdebstrap failed"
fi

step="find mirror"
mirror=""
if compgen -G '/etc/apt/sources.list.d/*.sources' >/dev/null; then
  mirror=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' \
    /etc/apt/sources.list.d/*.sources)
fi
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
    | awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^(https?|file):/) { print $i; exit } }')
fi
[ -n "$mirror" ] || die "no Debian mirror found in /etc/apt/sources.list(.d)"

# ---- bootstrap --------------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-rootfs.XXXXXX")
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
root="$tmp/root"

common=(--aptopt='Acquire::Check-Valid-Until "false"' --aptopt='Acquire::Retries "3"')
sources=("deb $mirror $SUITE main" "deb $mirror $SUITE-updates main")

step="mmdebstrap ($METHOD)"
log "bootstrapping $SUITE rootfs (method=$METHOD)"
if [ "$METHOD" = extract ]; then
  # NB: no --dpkgopt path-exclude here: it makes the extract step ~7x slower; docs are
  # removed afterwards instead. Customize hooks do not run for this variant.
  mmdebstrap --quiet --variant=extract --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --include="$(echo $BASE_EXTRACT $PACKAGES | tr ' ' ',')" "${common[@]}" \
    "$SUITE" "$root" "${sources[@]}" >"$tmp/mmdebstrap.log" 2>&1 || { tail -40 "$tmp/mmdebstrap.log" >&2; false; }

  step="fix-ups (extract)"
  log "fix-ups: passwd/group, awk, ld.so.cache, CA bundle"
  cp "$root/usr/share/base-passwd/passwd.master" "$root/etc/passwd"
  cp "$root/usr/share/base-passwd/group.master" "$root/etc/group"
  [ -e "$root/usr/bin/awk" ] || ln -s mawk "$root/usr/bin/awk"
  [ -e "$root/usr/bin/sh" ] || ln -s dash "$root/usr/bin/sh"
  mkdir -p "$root/root" "$root/tmp" "$root/var/tmp" && chmod 1777 "$root/tmp" "$root/var/tmp"
  chroot "$root" /sbin/ldconfig
  mkdir -p "$root/etc/ssl/certs"
  (cd "$root/usr/share/ca-certificates" && find . -name '*.crt' | sed 's#^\./##' | LC_ALL=C sort) \
    > "$root/etc/ca-certificates.conf"
  chroot "$root" /usr/sbin/update-ca-certificates >/dev/null
  rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
         "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/*
  find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
else
  mmdebstrap --quiet --variant=minbase --include="$(echo $PACKAGES | tr ' ' ',')" "${common[@]}" \
    --dpkgopt='force-unsafe-io' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    "$SUITE" "$root" "${sources[@]}" >"$tmp/mmdebstrap.log" 2>&1 || { tail -40 "$tmp/mmdebstrap.log" >&2; false; }
fi
# the mirror is only reachable from the build host; do not ship it in the image
rm -f "$root/etc/apt/sources.list"; rm -f "$root"/etc/apt/sources.list.d/* 2>/dev/null || true

step="verify rootfs"
for b in bash sh git patch rg python3 find xargs setsid pkill mkfifo; do
  chroot "$root" /bin/sh -c "command -v $b" >/dev/null || die "rootfs is missing '$b'"
done
chroot "$root" /usr/bin/python3 -c 'import pytest' || die "rootfs python3 cannot import pytest"
[ -s "$root/etc/ssl/certs/ca-certificates.crt" ] || die "rootfs has no CA bundle"

# ---- import -----------------------------------------------------------------------
step="$ENGINE import"
log "importing as $IMAGE with $ENGINE"
changes=(--change 'CMD ["/bin/bash"]' --change 'WORKDIR /root'
         --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
         --change 'ENV LANG=C.UTF-8')
if [ -n "${KEEP_TAR:-}" ]; then
  tar -C "$root" -cf "$KEEP_TAR" .
  "$ENGINE" import "${changes[@]}" "$KEEP_TAR" "$IMAGE" >/dev/null 2>"$tmp/import.log" || { cat "$tmp/import.log" >&2; false; }
else
  tar -C "$root" -cf - . | "$ENGINE" import "${changes[@]}" - "$IMAGE" >/dev/null 2>"$tmp/import.log" || { cat "$tmp/import.log" >&2; false; }
fi

step="smoke test"
"$ENGINE" run --rm "$IMAGE" sh -c 'git --version && rg --version >/dev/null && python3 -m pytest --version' >/dev/null 2>&1 \
  || die "smoke test of $IMAGE failed (is the container runtime configured? see containers.conf: runtime=runc, default_ulimits)"
log "built $IMAGE ($METHOD) in ${SECONDS}s"
