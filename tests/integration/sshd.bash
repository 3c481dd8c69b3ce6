# sshd.bash - a private OpenSSH server on loopback for the tests that reach a "server
# host" over ssh (sourced after common.bash). start_sshd generates a host key and a user
# key in $TMP/ssh, writes sshd's own config (loopback only, keys only, its pid file in
# $TMP) and an ssh client config that pins the host key, starts sshd on 29000 + (pid %
# 400) (29000-29399: no other test's range), waits until it accepts a login, and sets:
#   SSH_PORT, SSH_TARGET (ssh://USER@127.0.0.1:PORT), DBGAUGE_SSH (exported: the client
#   with that config; dbgauge starts ssh with it) and SSH_DIR.
# stop_sshd stops it by the pid in its pid file (also at exit: add it to your trap).

start_sshd() {
  SSH_DIR=$TMP/ssh
  mkdir -p "$SSH_DIR" /run/sshd # /run/sshd: sshd's privilege separation directory
  chmod 700 "$SSH_DIR"
  ssh-keygen -q -t ed25519 -N '' -f "$SSH_DIR/host_key" -C dgtest-host
  ssh-keygen -q -t ed25519 -N '' -f "$SSH_DIR/user_key" -C dgtest-user
  cp "$SSH_DIR/user_key.pub" "$SSH_DIR/authorized_keys"
  SSH_PORT=$((29000 + $$ % 400))
  local user; user=$(id -un)
  cat > "$SSH_DIR/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $SSH_PORT
HostKey $SSH_DIR/host_key
AuthorizedKeysFile $SSH_DIR/authorized_keys
PidFile $SSH_DIR/sshd.pid
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $user
LogLevel ERROR
EOF
  echo "[127.0.0.1]:$SSH_PORT $(cut -d' ' -f1,2 "$SSH_DIR/host_key.pub")" > "$SSH_DIR/known_hosts"
  cat > "$SSH_DIR/ssh_config" <<EOF
Host 127.0.0.1
  IdentityFile $SSH_DIR/user_key
  IdentitiesOnly yes
  UserKnownHostsFile $SSH_DIR/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
EOF
  /usr/sbin/sshd -f "$SSH_DIR/sshd_config" -E "$SSH_DIR/sshd.log" \
    || fail "sshd did not start: $(cat "$SSH_DIR/sshd.log" 2>/dev/null)"
  export DBGAUGE_SSH="ssh -F $SSH_DIR/ssh_config"
  SSH_TARGET="ssh://$user@127.0.0.1:$SSH_PORT"
  local i
  for i in $(seq 1 200); do # a state: a login that answers
    if $DBGAUGE_SSH -o BatchMode=yes -p "$SSH_PORT" -l "$user" 127.0.0.1 true 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  fail "sshd on port $SSH_PORT accepted no login: $(cat "$SSH_DIR/sshd.log" 2>/dev/null)"
}

stop_sshd() {
  [ -n "${SSH_DIR:-}" ] && [ -r "$SSH_DIR/sshd.pid" ] || return 0
  kill "$(cat "$SSH_DIR/sshd.pid")" 2>/dev/null || true
  rm -f "$SSH_DIR/sshd.pid"
}
