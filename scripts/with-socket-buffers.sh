#!/usr/bin/env bash
# Runs a command with loopback connections that buffer differently from this machine's default:
#   scripts/with-socket-buffers.sh large -- npx jest test/hardening
#   scripts/with-socket-buffers.sh small -- npm run test:load
# large: every TCP socket starts with 32 MiB buffers and may grow to 64 MiB each way (a client that does not read
#        can swallow a multi-megabyte answer whole); small: 8 KiB, growing to 64 KiB at most.
# How much the kernel buffers for a connection differs between machines (net.ipv4.tcp_rmem and tcp_wmem), and a
# test that holds on one setting only is a test that fails on somebody's machine: CI runs the suites most exposed to
# it (hardening, load) under both. The command runs in a network namespace of its own (its own loopback, where
# those settings apply), made with unshare: as root, or in a user namespace where the kernel allows it.
set -euo pipefail

usage() {
  echo "usage: $0 large|small -- <command> [args...]" >&2
  exit 2
}
[ $# -ge 3 ] && [ "$2" = "--" ] || usage
case "$1" in
  large) rmem="4096 33554432 67108864" wmem="4096 33554432 67108864" ;;
  small) rmem="4096 8192 65536" wmem="4096 8192 65536" ;;
  *) usage ;;
esac
shift 2

inner='ip link set lo up && sysctl -q -w net.ipv4.tcp_rmem="$1" net.ipv4.tcp_wmem="$2" && shift 2 && exec "$@"'
if [ "$(id -u)" = 0 ]; then
  exec unshare --net -- sh -c "$inner" sh "$rmem" "$wmem" "$@"
fi
# Not root: a user namespace of its own owns the network namespace (the command runs as its root, which is this user).
exec unshare --map-root-user --net -- sh -c "$inner" sh "$rmem" "$wmem" "$@"
