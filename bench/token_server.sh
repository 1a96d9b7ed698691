#!/usr/bin/env bash
# A token endpoint for the round-trip benchmarks: nginx on 127.0.0.1 answering every POST /token with the
# same refresh response, so what differs between the clients measured is the client alone; and GET /jwks
# serving <dir>/jwks.json for the ID token benchmark. One nginx process (master_process off) does all the
# serving, so its CPU time is the server's whole share of a round trip: <dir>/nginx.pid names it.
#
#   bench/token_server.sh start <dir>   → prints the port; nginx runs in the background (pid in <dir>)
#   bench/token_server.sh stop <dir>
set -euo pipefail
action=$1 dir=$2
case "$action" in
start)
    command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { apt-get install -y -q nginx-light >/dev/null 2>&1 || apt-get install -y -q nginx >/dev/null; }
    mkdir -p "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # A rotated refresh token, an hour-long access token: what a provider answers a refresh with.
    body='{"access_token":"at-0123456789abcdefghijklmnopqrstuvwxyz","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-0123456789abcdefghijklmnopqrstuvwxyz","scope":"openid profile"}'
    cat >"$dir/nginx.conf" <<CONF
daemon on;
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    keepalive_requests 10000000;
    server {
        listen 127.0.0.1:$port;
        location = /token {
            default_type application/json;
            return 200 '$body';
        }
        location = /jwks {
            default_type application/json;
            alias $dir/jwks.json;
        }
    }
}
CONF
    /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" 2>>"$dir/error.log"
    for _ in $(seq 50); do
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
        sleep 0.1
    done
    echo "$port"
    ;;
stop)
    [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true
    ;;
esac
