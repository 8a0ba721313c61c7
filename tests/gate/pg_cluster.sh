#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for one test suite: started once before
# the suite's tests (a CTest setup fixture), stopped after them.
#   pg_cluster.sh start STATE   initdb + start; writes the connection URL to STATE
#   pg_cluster.sh stop STATE    stops the cluster and removes its folder
#   pg_cluster.sh pause STATE   stops the server, keeping its data (a test of
#                               a database lost while a gate runs)
#   pg_cluster.sh resume STATE  starts a paused server again, at the same URL
#   pg_cluster.sh freeze STATE  stops this cluster's processes (SIGSTOP, by the
#                               ids in its postmaster.pid and their children):
#                               connections stay open and nothing answers, as
#                               with a stuck server or a network partition
#   pg_cluster.sh thaw STATE    lets them run again (SIGCONT)
# It listens only on a Unix socket in its own temporary folder (no TCP port
# is taken). The server refuses to run as root: as root it runs as the
# `postgres` user that Debian's postgresql-15 package creates.
set -euo pipefail
cmd=${1:?start or stop}
state=${2:?state file}
bin=/usr/lib/postgresql/15/bin
port=55432

start_server() {
  as_pg "$bin/pg_ctl" -D "$1/data" -l "$1/log" -w -t 60 \
    -o "-k $1 -p $port -c listen_addresses='' -c fsync=off -c max_connections=200" start >/dev/null
}

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case $cmd in
  start)
    [ -x "$bin/initdb" ] || { echo "postgresql-15 is not installed (make deps-test installs it)" >&2; exit 1; }
    if [ -f "$state.dir" ]; then "$0" stop "$state" || true; fi
    dir=$(mktemp -d /tmp/bloomlab-pg.XXXXXX)
    chmod 755 "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    echo "$dir" > "$state.dir"
    as_pg "$bin/initdb" -D "$dir/data" -A trust -U bloomlab >/dev/null
    start_server "$dir"
    echo "postgresql://bloomlab@/postgres?host=$dir&port=$port" > "$state"
    echo "PostgreSQL started: $(cat "$state")"
    ;;
  stop)
    [ -f "$state.dir" ] || exit 0
    dir=$(cat "$state.dir")
    as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir" "$state" "$state.dir"
    echo "PostgreSQL stopped"
    ;;
  pause)
    dir=$(cat "$state.dir")
    as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  resume)
    start_server "$(cat "$state.dir")"
    ;;
  freeze|thaw)
    dir=$(cat "$state.dir")
    postmaster=$(head -n 1 "$dir/data/postmaster.pid")
    children=$(pgrep -P "$postmaster" || true)
    sig=STOP
    [ "$cmd" = thaw ] && sig=CONT
    # Children first on freeze, so the postmaster cannot start new ones.
    if [ "$cmd" = freeze ]; then kill -STOP "$postmaster"; fi
    for pid in $children; do kill -"$sig" "$pid" 2>/dev/null || true; done
    if [ "$cmd" = thaw ]; then kill -CONT "$postmaster"; fi
    ;;
  *) echo "usage: $0 start|stop|pause|resume|freeze|thaw STATE" >&2; exit 2 ;;
esac
