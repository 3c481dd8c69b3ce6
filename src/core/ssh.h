/*
 * ssh.h - sessions of the user's own OpenSSH client, for the hosts dbgauge reaches without
 * a daemon of its own (a database server's /proc, driver hosts): ssh://[user@]host[:port]
 * targets, and a child ssh whose standard input and output are one socket (a send to an
 * ssh that died is an error, never SIGPIPE) and whose standard error is a pipe of its own.
 *
 * The command is "ssh", or the words of the DBGAUGE_SSH environment variable (e.g.
 * "ssh -F /path/config"), then BatchMode=yes (never a prompt), ConnectTimeout=10 and
 * ServerAliveInterval=5 x 3 (a host that vanishes is noticed within 15 s); host keys are
 * checked as the user's configuration says, never turned off. The child runs in a session
 * of its own, so a Ctrl-C at the terminal reaches dbgauge, which ends its sessions itself.
 */
#ifndef DG_CORE_SSH_H
#define DG_CORE_SSH_H

#include "core/err.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct dg_ssh_target {
    char user[128], host[256], port[16]; /* "" when not given */
} dg_ssh_target;

/* Parses "ssh://[user@]host[:port]" (an IPv6 host in [...]; a trailing "/" allowed).
 * what names the option in messages. A password, a path, a host starting with '-' are
 * refused. */
int dg_ssh_target_parse(const char *url, const char *what, dg_ssh_target *out, dg_err *err);

typedef struct dg_ssh {
    pid_t pid;          /* 0 once reaped */
    int fd;             /* the remote command's standard input and output */
    int errfd;          /* its standard error (non-blocking) */
    char errtail[512];  /* the last bytes read from errfd by dg_ssh_drain_stderr */
} dg_ssh;

/* Starts ssh to t running command (one string, as the remote login shell reads it). */
int dg_ssh_start(dg_ssh *s, const dg_ssh_target *t, const char *command, dg_err *err);

/* Reads what ssh wrote to its standard error so far into errtail (its last 511 bytes). */
void dg_ssh_drain_stderr(dg_ssh *s);

/* The last line of ssh's standard error (after draining it): its reason for failing. */
const char *dg_ssh_message(dg_ssh *s);

/* Sends all of buf (0, or -1 when the session has ended). */
int dg_ssh_send(dg_ssh *s, const char *buf, size_t len);

/* Closes the session's descriptors and waits up to wait_ns for ssh to exit (SIGTERM
 * first when force, SIGKILL at the end). Returns its exit status, or -1 when it was
 * killed or already reaped. */
int dg_ssh_end(dg_ssh *s, bool force, int64_t wait_ns);

/* Appends arg to a command line for a remote POSIX shell, single-quoted. */
void dg_ssh_quote(char **line, const char *arg);

#endif
