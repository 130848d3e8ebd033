#!/usr/bin/env bash
# Installs the Debian packages the test suite needs when they are missing: a real Secret Service
# (gnome-keyring) on a private D-Bus session for the keychain tests, Chromium for the emulator
# console's browser tests (driven headless by playwright-core), and redis-server (with openssl for
# its TLS test certificate) for the fleet tests (they start their own on a free port; the system
# service is not used), and PostgreSQL for the postgres plugin's tests (they start throwaway servers
# from /usr/lib/postgresql/<version>/bin; the system cluster is not used), OpenLDAP and Samba for the
# ldap plugin's tests (a private slapd on random ports, and a private Samba Active Directory domain
# controller), and Redmine on SQLite for the rest plugin's tests (a throwaway instance per test file).
# No system service of these packages is started: a policy-rc.d refuses every start while they install.
set -euo pipefail
need=()
command -v dbus-run-session >/dev/null 2>&1 || need+=(dbus dbus-bin)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need+=(gnome-keyring)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || need+=(postgresql)
command -v setpriv >/dev/null 2>&1 || need+=(util-linux)
[ -x /usr/sbin/slapd ] || need+=(slapd)
command -v ldapsearch >/dev/null 2>&1 || need+=(ldap-utils)
command -v samba-tool >/dev/null 2>&1 || need+=(samba samba-ad-dc samba-ad-provision samba-dsdb-modules)
[ -d /usr/share/redmine ] || need+=(redmine redmine-sqlite)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need[*]}"
  apt-get update
  # Packages such as slapd and samba start their system service on install; refuse that (exit 101 is
  # "action forbidden by policy"), and put back whatever policy was there before.
  policy=/usr/sbin/policy-rc.d
  saved=
  if [ -e "$policy" ]; then saved=$(mktemp); cp -p "$policy" "$saved"; fi
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  restore() { if [ -n "$saved" ]; then mv "$saved" "$policy"; else rm -f "$policy"; fi; }
  trap restore EXIT
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
fi
