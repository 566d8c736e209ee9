#!/bin/sh
# Installs the Debian packages the build and tests need, if any is missing (CI machines start bare).
set -e
need=""
for tool in cmake:cmake gcc:gcc make:make; do
  cmd=${tool%%:*}; pkg=${tool#*:}
  command -v "$cmd" >/dev/null 2>&1 || need="$need $pkg"
done
if [ -n "$need" ]; then
  echo "deps: installing$need" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need
fi
