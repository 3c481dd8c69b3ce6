/* ssh.c - the user's ssh as a child process (see ssh.h). */
#include "core/ssh.h"

#include "core/clock.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int dg_ssh_target_parse(const char *t, const char *what, dg_ssh_target *out, dg_err *err)
{
    memset(out, 0, sizeof *out);
    if (strncmp(t, "ssh://", 6) != 0)
        return dg_err_fail(err, DG_E_INVAL, "%s '%s': expected ssh://[user@]host[:port]", what, t);
    const char *p = t + 6, *at = strchr(p, '@');
    if (at) {
        size_t n = (size_t)(at - p);
        if (memchr(p, ':', n))
            return dg_err_fail(err, DG_E_INVAL,
                               "%s: no password in an ssh URL (ssh uses your keys or agent)", what);
        if (n == 0 || n >= sizeof out->user)
            return dg_err_fail(err, DG_E_INVAL, "%s: bad user name", what);
        memcpy(out->user, p, n);
        p = at + 1;
    }
    const char *hend;
    if (*p == '[') { /* [IPv6]:port */
        hend = strchr(p, ']');
        if (!hend)
            return dg_err_fail(err, DG_E_INVAL, "%s '%s': unclosed '['", what, t);
        snprintf(out->host, sizeof out->host, "%.*s", (int)(hend - p - 1), p + 1);
        hend++;
    } else {
        hend = p + strcspn(p, ":/");
        snprintf(out->host, sizeof out->host, "%.*s", (int)(hend - p), p);
    }
    if (!out->host[0] || out->host[0] == '-')
        return dg_err_fail(err, DG_E_INVAL, "%s '%s': no host name", what, t);
    if (*hend == ':') {
        const char *q = hend + 1;
        size_t n = strspn(q, "0123456789");
        if (n == 0 || n >= sizeof out->port || (q[n] && strcmp(q + n, "/") != 0))
            return dg_err_fail(err, DG_E_INVAL, "%s '%s': bad port", what, t);
        memcpy(out->port, q, n);
        hend = q + n;
    }
    if (*hend && strcmp(hend, "/") != 0)
        return dg_err_fail(err, DG_E_INVAL, "%s '%s': an ssh URL has no path", what, t);
    return 0;
}

void dg_ssh_drain_stderr(dg_ssh *s)
{
    if (s->errfd < 0)
        return;
    char chunk[512];
    ssize_t n;
    while ((n = read(s->errfd, chunk, sizeof chunk)) > 0) { /* keep the last 511 bytes */
        char both[sizeof s->errtail + sizeof chunk];
        size_t have = strlen(s->errtail);
        memcpy(both, s->errtail, have);
        memcpy(both + have, chunk, (size_t)n);
        size_t total = have + (size_t)n, keep = total < sizeof s->errtail ? total : sizeof s->errtail - 1;
        memcpy(s->errtail, both + total - keep, keep);
        s->errtail[keep] = '\0';
    }
}

const char *dg_ssh_message(dg_ssh *s)
{
    dg_ssh_drain_stderr(s);
    size_t n = strlen(s->errtail);
    while (n && (s->errtail[n - 1] == '\n' || s->errtail[n - 1] == '\r'))
        s->errtail[--n] = '\0';
    char *last = strrchr(s->errtail, '\n');
    return last ? last + 1 : s->errtail[0] ? s->errtail : "the session ended";
}

static char **ssh_argv(const dg_ssh_target *tg, const char *command)
{
    const char *cmd = getenv("DBGAUGE_SSH");
    char *words = xstrdup(cmd && *cmd ? cmd : "ssh");
    int cap = 32, n = 0;
    char **argv = xcalloc((size_t)cap, sizeof *argv);
    for (char *w = strtok(words, " \t"); w && n < cap - 16; w = strtok(NULL, " \t"))
        argv[n++] = xstrdup(w);
    free(words);
    const char *fixed[] = {"-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                           "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        argv[n++] = xstrdup(fixed[i]);
    if (tg->port[0]) {
        argv[n++] = xstrdup("-p");
        argv[n++] = xstrdup(tg->port);
    }
    if (tg->user[0]) {
        argv[n++] = xstrdup("-l");
        argv[n++] = xstrdup(tg->user);
    }
    argv[n++] = xstrdup(tg->host);
    argv[n++] = xstrdup(command);
    return argv;
}

int dg_ssh_start(dg_ssh *s, const dg_ssh_target *tg, const char *command, dg_err *err)
{
    memset(s, 0, sizeof *s);
    s->fd = s->errfd = -1;
    int sv[2], ep[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return dg_err_fail(err, DG_E_IO, "socketpair: %s", strerror(errno));
    if (pipe(ep) != 0) {
        close(sv[0]);
        close(sv[1]);
        return dg_err_fail(err, DG_E_IO, "pipe: %s", strerror(errno));
    }
    fcntl(ep[0], F_SETFD, FD_CLOEXEC);
    fcntl(ep[1], F_SETFD, FD_CLOEXEC);
    char **argv = ssh_argv(tg, command);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        dup2(sv[1], 0);
        dup2(sv[1], 1);
        dup2(ep[1], 2);
        long maxfd = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (maxfd > 0 && maxfd < 65536 ? maxfd : 65536); fd++)
            close((int)fd);
        signal(SIGPIPE, SIG_DFL);
        execvp(argv[0], argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int e = errno;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
    close(sv[1]);
    close(ep[1]);
    if (pid < 0) {
        close(sv[0]);
        close(ep[0]);
        return dg_err_fail(err, DG_E_IO, "fork: %s", strerror(e));
    }
    s->pid = pid;
    s->fd = sv[0];
    s->errfd = ep[0];
    fcntl(s->errfd, F_SETFL, O_NONBLOCK);
    return 0;
}

int dg_ssh_send(dg_ssh *s, const char *buf, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t n = s->fd >= 0 ? send(s->fd, buf + off, len - off, MSG_NOSIGNAL) : -1;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        off += (size_t)n;
    }
    return 0;
}

int dg_ssh_end(dg_ssh *s, bool force, int64_t wait_ns)
{
    dg_ssh_drain_stderr(s);
    if (s->fd >= 0) {
        shutdown(s->fd, SHUT_WR);
        close(s->fd);
        s->fd = -1;
    }
    int status = -1;
    if (s->pid > 0) {
        if (force)
            kill(s->pid, SIGTERM);
        int64_t end = dg_now_ns() + wait_ns;
        int ws;
        pid_t r;
        while ((r = waitpid(s->pid, &ws, WNOHANG)) == 0 && dg_now_ns() < end)
            dg_sleep_ns(10 * 1000 * 1000);
        if (r == 0) {
            kill(s->pid, SIGKILL);
            r = waitpid(s->pid, &ws, 0);
        }
        if (r == s->pid && WIFEXITED(ws))
            status = WEXITSTATUS(ws);
        s->pid = 0;
    }
    dg_ssh_drain_stderr(s);
    if (s->errfd >= 0) {
        close(s->errfd);
        s->errfd = -1;
    }
    return status;
}

void dg_ssh_quote(char **line, const char *arg)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    if (*line && **line)
        dg_sb_printf(&sb, "%s ", *line);
    dg_sb_addc(&sb, '\'');
    for (const char *p = arg; *p; p++) {
        if (*p == '\'')
            dg_sb_add(&sb, "'\\''");
        else
            dg_sb_addc(&sb, *p);
    }
    dg_sb_addc(&sb, '\'');
    free(*line);
    *line = dg_sb_take(&sb);
}
