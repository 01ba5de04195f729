#!/usr/bin/env bash
# Starts a Docker-compatible engine (Podman's API service) and builds the sandbox image, so the
# Docker adapter can be tested for real on a machine that has no Docker Engine.
# Idempotent: installs podman+runc with apt only if missing, rewrites the config only if it
# differs, starts the service only if its socket does not answer, builds the image only if it
# is missing. Needs root. Prints `export DOCKER_HOST=...` on stdout (everything else on stderr),
# so `eval "$(bash .ci/start-podman.sh)"` works.
#
# Environment: SANDKIT_PODMAN_SOCKET (default /run/sandkit-podman.sock),
#              SANDBOX_IMAGE (default localhost/sandkit-sandbox:bookworm).
set -euo pipefail
cd "$(dirname "$0")/.."

socket=${SANDKIT_PODMAN_SOCKET:-/run/sandkit-podman.sock}
image=${SANDBOX_IMAGE:-localhost/sandkit-sandbox:bookworm}
log() { echo "start-podman: $*" >&2; }

[ "$(id -u)" = 0 ] || { log "must run as root"; exit 1; }

missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# crun (podman's default) fails on hybrid cgroups here; podman's default ulimits exceed the
# VM's hard limits (container start fails with setrlimit EPERM). See podman.md.
conf=$(cat <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
runtime = "runc"
CONF
)
mkdir -p /etc/containers
if [ "$(cat /etc/containers/containers.conf 2>/dev/null)" != "$conf" ]; then
  log "writing /etc/containers/containers.conf"
  printf '%s\n' "$conf" >/etc/containers/containers.conf
fi

ping() { timeout 5 podman --remote --url "unix://$socket" version >/dev/null 2>&1; }
if ! ping; then
  log "starting podman system service on unix://$socket"
  rm -f "$socket"
  # Started from / so the service and conmon never depend on a checkout that may be removed later
  # (conmon fails with "Failed to get working directory" once its cwd is gone).
  (cd / && nohup podman system service --time=0 "unix://$socket" >/var/log/sandkit-podman.log 2>&1 </dev/null &)
  for _ in $(seq 1 100); do ping && break; sleep 0.1; done
  ping || { log "service did not answer on $socket; log:"; tail -20 /var/log/sandkit-podman.log >&2; exit 1; }
fi
log "service up on unix://$socket"

SANDBOX_IMAGE="$image" bash images/sandbox/build-debian-image.sh >&2
echo "export DOCKER_HOST=unix://$socket"
