#!/usr/bin/env bash
# Installs the Debian packages the test suite needs when they are missing: a real Secret Service
# (gnome-keyring) on a private D-Bus session for the keychain tests, Chromium for the emulator
# console's browser tests (driven headless by playwright-core), and redis-server (with openssl for
# its TLS test certificate) for the fleet tests (they start their own on a free port; the system
# service is not used), and PostgreSQL for the postgres plugin's tests (they start throwaway servers
# from /usr/lib/postgresql/<version>/bin; the system cluster is not used).
set -euo pipefail
need=()
command -v dbus-run-session >/dev/null 2>&1 || need+=(dbus dbus-bin)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need+=(gnome-keyring)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || need+=(postgresql)
command -v setpriv >/dev/null 2>&1 || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need[*]}"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
fi
