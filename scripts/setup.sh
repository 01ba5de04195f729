#!/usr/bin/env bash
# Installs what sandkit's main job and tests need on a fresh Debian machine with Node 20:
# pnpm (pinned), git, GNU patch, ripgrep, python3 + pytest (+ xdist), Go, bubblewrap (the local
# adapter's isolation); with --docker (the tests' set-up) also Debian's Chromium (the `sandkit view`
# report's browser tests drive /usr/bin/chromium with playwright-core, which downloads no browser), jq,
# PHPUnit, Ruby with RSpec and minitest, the JUnit XML writers (Catch2, CMake, JUnit 5, Maven with
# Surefire, rspec_junit_formatter, TAP::Formatter::JUnit), Podman's
# Docker-compatible service and the sandbox image. Idempotent; needs root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

want_docker=0
for arg in "$@"; do
  case "$arg" in
    --docker) want_docker=1 ;;
    *) echo "usage: scripts/setup.sh [--docker]" >&2; exit 2 ;;
  esac
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(git patch ripgrep python3 python3-pytest python3-pytest-xdist golang-go findutils bubblewrap)
# callgrind counts the instructions of grade-growth.test.ts (how grading grows with the list length).
packages+=(valgrind)
# --docker is the tests' set-up: Podman, and the other real runners the tests drive.
[ "$want_docker" = 1 ] && packages+=(podman runc mmdebstrap jq phpunit ruby ruby-rspec ruby-minitest chromium)
# JUnit XML writers the junit-xml parser tests and fixtures run (generate-junit-xml.sh).
[ "$want_docker" = 1 ] && packages+=(catch2 g++ cmake junit5 maven libsurefire-java libmaven-compiler-plugin-java
  libmaven-resources-plugin-java ruby-rspec-junit-formatter libtap-formatter-junit-perl)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The E2B stand-in runs commands as E2B templates' default user, `user` (home /home/user).
if ! id user >/dev/null 2>&1; then
  echo "setup: adding the user 'user' for the E2B stand-in" >&2
  as_root useradd --create-home --shell /bin/bash user
fi

if ! command -v pnpm >/dev/null || [ "$(pnpm --version)" != "12.4.2" ]; then
  echo "setup: installing pnpm 12.4.2" >&2
  as_root npm install -g pnpm@12.4.2 >/dev/null 2>&1
fi

pnpm install --frozen-lockfile >/dev/null

if [ "$want_docker" = 1 ]; then
  as_root bash .ci/start-podman.sh
fi
