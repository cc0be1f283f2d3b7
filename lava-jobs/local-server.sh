#!/bin/sh
# A throw-away LAVA instance on this host, all of it in one state directory:
# PostgreSQL (a cluster of its own, unix socket only), lava-server (gunicorn,
# lava-publisher, lava-scheduler) and a lava-worker, Debian's packages
# (tools/deps.sh lava-server). Every TCP listener is on 127.0.0.1.
# For `make lava-server-check` (server-check.sh), and to try jobs by hand.
#
# usage: local-server.sh start STATE [--device NAME:TYPE:DICT.jinja2]...
#        local-server.sh stop STATE
# start  STATE must not exist or be empty. Starts everything, then registers
#        the user 'nightly' (superuser) with a token, the lavacli identity
#        'local' (STATE/config/lavacli.yaml: set XDG_CONFIG_HOME=STATE/config),
#        the worker 'local-worker' and each --device (its device type added,
#        DICT installed as its device dictionary). Writes STATE/env (to
#        source: XDG_CONFIG_HOME, LAVA_URL, LAVA_IDENTITY) and STATE/pids
#        (name and pid per line). Logs in STATE/log/.
# stop   ends what STATE/pids names, by pid, newest first (the worker's
#        running jobs, lava-run and QEMU, by their process group first):
#        TERM, then KILL after 20 s.
# Each step has a timeout; a failing step is named with the log to read,
# and start exits 1 (2: bad usage or a missing package). start does not stop
# what it started when it fails: the caller's trap runs `stop`.
# The server processes run as Debian's 'lavaserver' user (created by the
# lava-server package), PostgreSQL as 'postgres' (peer authentication),
# lava-worker and its jobs as root, as Debian's services do.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ident=local user=nightly worker=local-worker

die() { echo "local-server: $*" >&2; exit 1; }
usage() { echo "local-server: $*" >&2; exit 2; }
log() { echo "local-server: $*" >&2; }

# stop STATE
stop() {
    pids=$1/pids
    [ -f "$pids" ] || return 0
    # newest first: the worker before the server, PostgreSQL last
    tac "$pids" | while read -r name pid; do
        kill -0 "$pid" 2>/dev/null || continue
        if [ "$name" = lava-worker ]; then
            # its jobs: lava-run runs in a process group of its own (setpgrp)
            for c in $(ps -o pid= --ppid "$pid" 2>/dev/null); do
                kill -TERM -- "-$c" 2>/dev/null || kill -TERM "$c" 2>/dev/null || true
            done
        fi
        sig=TERM
        [ "$name" = postgres ] && sig=INT   # fast shutdown
        kill -"$sig" "$pid" 2>/dev/null || true
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 40 ]; do sleep 0.5; i=$((i + 1)); done
        if kill -0 "$pid" 2>/dev/null; then
            log "stop: $name ($pid) still there after 20 s: KILL"
            kill -KILL "$pid" 2>/dev/null || true
        fi
        log "stop: $name ($pid) ended"
    done
    rm -f "$pids"
}

# wait_for WHAT SECONDS LOG COMMAND...: retry COMMAND every second
wait_for() {
    what=$1 secs=$2 logf=$3; shift 3
    t0=$(date +%s)
    until "$@" >/dev/null 2>&1; do
        [ $(( $(date +%s) - t0 )) -lt "$secs" ] || die "$what: not ready after $secs s (see $logf)"
        sleep 1
    done
}

# step NAME SECONDS COMMAND...: a foreground step with a timeout, its output
# in STATE/log/NAME.log
step() {
    sname=$1 secs=$2; shift 2
    t0=$(date +%s) st=0
    timeout -k 10 "$secs" "$@" > "$state/log/$sname.log" 2>&1 || st=$?
    if [ $st != 0 ]; then
        tail -n 20 "$state/log/$sname.log" >&2
        [ $st = 124 ] && die "$sname: timed out after $secs s (log: $state/log/$sname.log)"
        die "$sname failed, exit status $st (log: $state/log/$sname.log)"
    fi
    log "$sname ($(( $(date +%s) - t0 )) s)"
}

# started NAME PID: record a background process
started() { echo "$1 $2" >> "$state/pids"; }

# (words, not functions: timeout runs them)
as_lava="runuser -u lavaserver --"
as_pg="runuser -u postgres --"
manage="$as_lava lava-server manage"

start() {
    for c in lava-server lava-worker lavacli gunicorn3 runuser; do
        command -v "$c" >/dev/null || usage "$c is not installed (tools/deps.sh lava-server)"
    done
    pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -x "$pgbin/initdb" ] || usage "PostgreSQL is not installed (tools/deps.sh lava-server)"
    id lavaserver >/dev/null 2>&1 || usage "no 'lavaserver' user: is lava-server installed?"
    [ "$(id -u)" = 0 ] || usage "must run as root (the worker runs jobs as root, as Debian's lava-worker)"

    mkdir -p "$state"
    [ -z "$(ls -A "$state")" ] || usage "$state is not empty"
    state=$(cd "$state" && pwd)
    chmod 755 "$state"   # postgres and lavaserver walk into it
    mkdir -p "$state/log" "$state/run" "$state/media" "$state/worker" "$state/config" \
        "$state/dispatcher-config/devices" "$state/dispatcher-config/device-types" \
        "$state/dispatcher-config/health-checks"
    install -d -o postgres -g postgres -m 700 "$state/pg"
    install -d -o postgres -g postgres -m 755 "$state/pgsock"
    touch "$state/log/postgresql.log"
    chown postgres:postgres "$state/log/postgresql.log"
    chown -R lavaserver:lavaserver "$state/media" "$state/dispatcher-config"
    chown lavaserver:lavaserver "$state/log" "$state/run"
    cd "$state"

    # Three free loopback ports: the web service, the publisher's websocket
    # (the worker's events) and its zmq stream (the scheduler's events).
    set -- $(/usr/bin/python3 -c '
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
    http_port=$1 ws_port=$2 ev_port=$3
    url=http://127.0.0.1:$http_port

    # lava-server's settings: /etc/lava-server is left alone; every path
    # that matters comes from LAVA_JSON_SETTINGS (read last by
    # lava_server.settings.prod, so it wins over /etc/lava-server/settings.d).
    LAVA_JSON_SETTINGS=$(STATE=$state EV=$ev_port /usr/bin/python3 -c '
import base64, json, os, secrets
s = os.environ["STATE"]
cfg = {
    "DATABASES": {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "lavaserver",
                              "USER": "lavaserver", "PASSWORD": "", "HOST": s + "/pgsock", "PORT": ""}},
    "SECRET_KEY": secrets.token_urlsafe(40),
    "MEDIA_ROOT": s + "/media/",
    "DJANGO_LOGFILE": s + "/log/django.log",
    "DEVICES_PATH": s + "/dispatcher-config/devices",
    "DEVICE_TYPES_PATHS": [s + "/dispatcher-config/device-types", "/usr/share/lava-server/device-types"],
    "HEALTH_CHECKS_PATH": s + "/dispatcher-config/health-checks",
    "EVENT_NOTIFICATION": True,
    "INTERNAL_EVENT_SOCKET": "ipc://" + s + "/run/lava.events",
    "EVENT_SOCKET": "tcp://127.0.0.1:" + os.environ["EV"],
    "ALLOWED_HOSTS": ["127.0.0.1", "localhost"],
}
print(base64.b64encode(json.dumps(cfg).encode()).decode())')
    export LAVA_JSON_SETTINGS
    export XDG_CONFIG_HOME=$state/config
    : > "$state/pids"
    cat > "$state/env" <<EOF
# source this file to use the throw-away server (lavacli -i $ident ...)
export XDG_CONFIG_HOME='$state/config'
export LAVA_JSON_SETTINGS='$LAVA_JSON_SETTINGS'
LAVA_URL='$url'
LAVA_IDENTITY='$ident'
EOF

    # PostgreSQL: its own cluster, no TCP at all (listen_addresses ''),
    # peer authentication on its socket; durability is not needed here.
    step postgres-initdb 120 $as_pg "$pgbin/initdb" -D "$state/pg" -U postgres -E UTF8 \
        --locale=C.UTF-8 --auth-local=peer --auth-host=reject --no-sync
    step postgres-start 90 $as_pg "$pgbin/pg_ctl" -D "$state/pg" -l "$state/log/postgresql.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$state/pgsock' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start
    started postgres "$(head -n 1 "$state/pg/postmaster.pid")"
    step postgres-db 60 $as_pg psql -h "$state/pgsock" -d postgres -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE lavaserver LOGIN" \
        -c "CREATE DATABASE lavaserver OWNER lavaserver ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0"

    # lava-server's tables (as the package's postinst does it)
    step migrate 900 $manage migrate --noinput
    # Job ids far from the 1, 2, ... of `lava-run` elsewhere on this host:
    # lava-run works in /var/lib/lava/dispatcher/tmp/<job id> and removes it.
    first_id=$(( ($(date +%s) % 100000) * 100 + 1000000 ))
    step job-ids 60 $as_lava psql -h "$state/pgsock" -d lavaserver -v ON_ERROR_STOP=1 \
        -c "ALTER SEQUENCE lava_scheduler_app_testjob_id_seq RESTART WITH $first_id"

    # the submitter, its token, the worker, the devices
    step user 120 $manage users add --superuser --staff --email "$user@localhost" "$user"
    step token 120 $manage tokens add --user "$user" --description "local-server.sh"
    token=$(tail -n 1 "$state/log/token.log" | tr -d '[:space:]')
    [ -n "$token" ] || die "no token in $state/log/token.log"
    step worker-add 120 $manage workers add --description "local-server.sh" "$worker"
    step worker-token 120 $manage shell -c \
        "from lava_scheduler_app.models import Worker; print(Worker.objects.get(hostname='$worker').token)"
    wtoken=$(tail -n 1 "$state/log/worker-token.log" | tr -d '[:space:]')
    [ -n "$wtoken" ] || die "no worker token in $state/log/worker-token.log"
    dtypes=""
    for spec in $devices; do
        name=${spec%%:*} rest=${spec#*:}
        dtype=${rest%%:*} dict=${rest#*:}
        case " $dtypes " in
            *" $dtype "*) ;;
            *) step "device-type-$dtype" 120 $manage device-types add "$dtype"; dtypes="$dtypes $dtype" ;;
        esac
        install -o lavaserver -g lavaserver -m 644 "$dict" "$state/dispatcher-config/devices/$name.jinja2"
        step "device-$name" 120 $manage devices add --device-type "$dtype" --worker "$worker" "$name"
    done

    # the services, in the background, each recorded by pid
    gunicorn3 lava_server.wsgi --bind "127.0.0.1:$http_port" -u lavaserver -g lavaserver \
        --worker-class eventlet --workers 2 --timeout 120 --graceful-timeout 10 --log-level info \
        --log-file "$state/log/gunicorn.log" > "$state/log/gunicorn.out" 2>&1 &
    started gunicorn $!
    lava-server manage lava-publisher --host 127.0.0.1 --port "$ws_port" --level INFO \
        --log-file "$state/log/lava-publisher.log" > "$state/log/lava-publisher.out" 2>&1 &
    started lava-publisher $!
    lava-server manage lava-scheduler --level INFO --event-url "tcp://127.0.0.1:$ev_port" \
        --log-file "$state/log/lava-scheduler.log" > "$state/log/lava-scheduler.out" 2>&1 &
    started lava-scheduler $!

    step identity 60 lavacli identities add --uri "$url/RPC2" --username "$user" --token "$token" "$ident"
    t0=$(date +%s)
    wait_for "lava-server ($url)" 180 "$state/log/gunicorn.log" lavacli -i "$ident" system version
    log "web service up ($(( $(date +%s) - t0 )) s, $url)"

    lava-worker --name "$worker" --url "$url" --ws-url "http://127.0.0.1:$ws_port/ws/" \
        --worker-dir "$state/worker" --token "$wtoken" --ping-interval 5 --level INFO \
        --log-file "$state/log/lava-worker.log" > "$state/log/lava-worker.out" 2>&1 &
    started lava-worker $!
    t0=$(date +%s)
    wait_for "worker $worker" 120 "$state/log/lava-worker.log" \
        sh -c "lavacli -i '$ident' workers show '$worker' | grep -q '^state *: *Online'"
    for p in $(cut -d' ' -f2 "$state/pids"); do
        kill -0 "$p" 2>/dev/null || die "process $p ($(grep " $p\$" "$state/pids")) has ended (see $state/log/)"
    done
    log "worker online ($(( $(date +%s) - t0 )) s); lavacli -i $ident with XDG_CONFIG_HOME=$state/config"
}

[ $# -ge 2 ] || usage "usage: local-server.sh start|stop STATE [--device NAME:TYPE:DICT]..."
cmd=$1 state=$2; shift 2
devices=""
while [ $# -gt 0 ]; do
    case "$1" in
        --device) d=${2##*:}
                  case "$d" in /*) ;; *) d=$(pwd)/$d ;; esac
                  [ -f "$d" ] || usage "no device dictionary $d"
                  devices="$devices ${2%:*}:$d"; shift 2 ;;
        *) usage "unknown argument '$1'" ;;
    esac
done
case "$cmd" in
    start) start ;;
    stop) stop "$state" ;;
    *) usage "unknown command '$cmd' (start or stop)" ;;
esac
