#!/usr/bin/env bash
# Installs the Debian packages the project needs when they are missing: gettext (msgfmt, for
# compilemessages) and chromium (the browser tests drive /usr/bin/chromium through Playwright).
set -euo pipefail
need=()
command -v msgfmt >/dev/null 2>&1 || need+=(gettext)
if [ "${TROCCAS_SKIP_CHROMIUM:-0}" != "1" ] && [ ! -x /usr/bin/chromium ]; then
  need+=(chromium)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != "0" ]; then
  echo "sysdeps: please install: ${need[*]} (apt-get install ${need[*]})" >&2
  exit 1
fi
echo "sysdeps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
