/*
 * drivers.c - `run --drivers ssh://H1,ssh://H2,...`: the built-in launcher. Over the user's
 * own ssh (core/ssh.h), and with no daemon of ours, it
 *   1. asks every host for its dbgauge version (it must be this one's) and estimates its
 *      clock's offset from this one (five round trips, the shortest kept: offset = the
 *      host's time minus the middle of the round trip, give or take half of it), refusing
 *      a host further off than --max-clock-offset (default 1 % of the interval);
 *   2. picks one --start-at with room for the slowest host's session set-up and the
 *      warmup, and a seed when none was given;
 *   3. starts `dbgauge run ... --part K/N --seed S --start-at T --json -` on every host at
 *      once: the database URL and its password travel on the session's standard input
 *      (into DBGAUGE_DB and DBGAUGE_PASSWORD there), never on a command line; only part 0
 *      samples the server host (--server-host), the others get --server-host none;
 *   4. prints every host's live lines prefixed with its part and host, reads each part's
 *      result from its standard output, and merges them (results/merge.h) into the one
 *      result this run writes, with the hosts' clock offsets in run.drivers.
 * SIGINT or SIGTERM ends every part's standard input, which stops its run there (a
 * watcher beside it sends SIGINT): the parts' partial results come back and are merged,
 * the run incomplete, exit 2; a session lost does the same to its own part.
 * A part that ends without a result (a host lost, a run that failed) leaves the run
 * incomplete: the results that came back are merged into the one result, which lists the
 * missing parts and why (run.missing_parts), and the message says so; exit 2 (1 when a
 * part failed before it measured anything: nothing is written). Should the parts that
 * came back not merge, they are written apart (FILE.partK.json).
 *
 * The program run on the hosts is "dbgauge" (their PATH), or DBGAUGE_REMOTE.
 */
#include "cli/commands.h"

#include "core/buildinfo.h"
#include "core/clock.h"
#include "core/file.h"
#include "core/log.h"
#include "core/signals.h"
#include "core/ssh.h"
#include "core/stop.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "report/text.h"
#include "results/doc.h"
#include "results/merge.h"
#include "results/result.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { MAX_DRIVERS = 256, PROBES = 5 };

typedef struct driver {
    char url[300];
    dg_ssh_target tg;
    dg_ssh ssh;
    double offset_ms, rtt_ms; /* the host's clock minus this one's; the round trip */
    double setup_s;           /* the probe session's set-up: login and the version */
    dg_strbuf out;            /* standard output: the part's result */
    dg_strbuf line;           /* standard error: a live line not yet ended */
    bool out_eof, err_eof;
    int status;               /* the remote dbgauge's exit status (ssh's 255: ssh failed) */
} driver;

/* The hosts of --drivers, split at ','. Returns how many, or -1 with err set. */
static int split_drivers(const char *list, driver *d, int cap, dg_err *err)
{
    int n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof d[0].url)
            return dg_err_fail(err, DG_E_INVAL, "--drivers: an empty or overlong host in '%s'", list), -1;
        if (n == cap)
            return dg_err_fail(err, DG_E_INVAL, "--drivers: more than %d hosts", cap), -1;
        memset(&d[n], 0, sizeof d[n]);
        memcpy(d[n].url, p, len);
        if (dg_ssh_target_parse(d[n].url, "--drivers", &d[n].tg, err))
            return -1;
        n++;
        p += len + (p[len] == ',');
    }
    if (n < 2)
        return dg_err_fail(err, DG_E_INVAL, "--drivers needs two hosts or more (one host: run there)"), -1;
    return n;
}

int dg_cli_drivers_check(const dg_options *o, dg_err *err)
{
    driver *d = xcalloc(MAX_DRIVERS, sizeof *d);
    int n = split_drivers(o->drivers, d, MAX_DRIVERS, err);
    free(d);
    if (n < 0)
        return DG_E_INVAL;
    if (n > o->terminals)
        return dg_err_fail(err, DG_E_INVAL, "--drivers: %d hosts but %" PRId64 " terminals (-c): "
                           "each part needs one", n, o->terminals);
    return 0;
}

/* One line from fd into out (without '\n'), what follows kept in acc; false at the
 * deadline or the end. */
static bool read_line(int fd, dg_strbuf *acc, char *out, size_t cap, int64_t deadline)
{
    for (;;) {
        const char *nl = acc->len ? memchr(acc->buf, '\n', acc->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - acc->buf);
            snprintf(out, cap, "%.*s", (int)n, acc->buf);
            memmove(acc->buf, nl + 1, acc->len - n - 1);
            acc->len -= n + 1;
            acc->buf[acc->len] = '\0';
            return true;
        }
        int64_t left = deadline - dg_now_ns();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)(left / 1000000 + 1)) <= 0)
            continue;
        char chunk[4096];
        ssize_t r = read(fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        dg_sb_addn(acc, chunk, (size_t)r);
    }
}

static const char *remote_bin(void)
{
    const char *b = getenv("DBGAUGE_REMOTE");
    return b && *b ? b : "dbgauge";
}

/* The host's dbgauge version and clock offset. */
static int probe(driver *d, dg_err *err)
{
    char *cmd = NULL;
    dg_ssh_quote(&cmd, remote_bin());
    char *full = xasprintf("exec sh -c '\"$1\" --version || exit 1; while read -r x; do "
                           "date +%%s%%N; done' sh %s", cmd);
    free(cmd);
    int64_t t0 = dg_now_ns();
    int rc = dg_ssh_start(&d->ssh, &d->tg, full, err);
    free(full);
    if (rc)
        return rc;
    dg_strbuf acc = DG_STRBUF_INIT;
    char line[256];
    int64_t deadline = dg_now_ns() + 30 * DG_NS_PER_S;
    if (!read_line(d->ssh.fd, &acc, line, sizeof line, deadline)) {
        dg_ssh_end(&d->ssh, true, DG_NS_PER_S);
        dg_sb_free(&acc);
        return dg_err_fail(err, DG_E_IO, "driver %s: %s", d->url, dg_ssh_message(&d->ssh));
    }
    d->setup_s = (double)(dg_now_ns() - t0) / DG_NS_PER_S;
    /* "dbgauge VERSION (commit C)": the version must be this one's; another commit of it
     * is only said */
    char want[64];
    snprintf(want, sizeof want, "dbgauge %s", DG_VERSION);
    const char *commit = strstr(line, " (commit ");
    size_t vlen = commit ? (size_t)(commit - line) : strlen(line);
    if (strlen(want) != vlen || strncmp(line, want, vlen) != 0) {
        dg_ssh_end(&d->ssh, true, DG_NS_PER_S);
        dg_sb_free(&acc);
        return dg_err_fail(err, DG_E_INVAL,
                           "driver %s runs '%s', this host '%s': every driver needs the same "
                           "dbgauge (DBGAUGE_REMOTE names the program there)",
                           d->url, line, want);
    }
    char here[64];
    snprintf(here, sizeof here, " (commit %s)", dg_build_commit());
    if (commit && strcmp(commit, here) != 0 && !strstr(here, "unknown") && !strstr(commit, "unknown"))
        dg_log_warn("driver %s runs %s, this host dbgauge %s%s: the same version, built from "
                    "another commit", d->url, line, DG_VERSION, here);
    d->rtt_ms = INFINITY;
    for (int i = 0; i < PROBES; i++) {
        int64_t a = dg_wall_ns();
        if (dg_ssh_send(&d->ssh, "x\n", 2) != 0 ||
            !read_line(d->ssh.fd, &acc, line, sizeof line, dg_now_ns() + 10 * DG_NS_PER_S))
            break;
        int64_t b = dg_wall_ns();
        double remote = strtod(line, NULL);
        double rtt = (double)(b - a) / 1e6;
        if (remote > 0 && rtt < d->rtt_ms) {
            d->rtt_ms = rtt;
            d->offset_ms = (remote - ((double)a + (double)b) / 2) / 1e6;
        }
    }
    dg_sb_free(&acc);
    dg_ssh_end(&d->ssh, false, DG_NS_PER_S);
    if (!isfinite(d->rtt_ms))
        return dg_err_fail(err, DG_E_IO, "driver %s: its clock could not be read (date +%%s%%N)",
                           d->url);
    return 0;
}

/* The command a part runs on its host. */
static char *part_command(const dg_options *o, int k, int n, uint64_t seed, const char *start_at)
{
    static const char *const drop[] = {"drivers", "max-clock-offset", "json", "db",
                                       "password-file", "seed", "results-dir", "server-host"};
    char *args = dg_cli_part_command(o, drop, (int)(sizeof drop / sizeof drop[0]));
    char *tail = NULL, buf[64];
    snprintf(buf, sizeof buf, "%d/%d", k, n);
    const char *extra[] = {"--part", buf, "--start-at", start_at, "--json", "-"};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        dg_ssh_quote(&tail, extra[i]);
    snprintf(buf, sizeof buf, "%" PRIu64, seed);
    dg_ssh_quote(&tail, "--seed");
    dg_ssh_quote(&tail, buf);
    if (k > 0 || o->server_host) { /* the server host's figures: part 0's alone */
        dg_ssh_quote(&tail, "--server-host");
        dg_ssh_quote(&tail, k > 0 ? "none" : o->server_host);
    }
    char *bin = NULL;
    dg_ssh_quote(&bin, remote_bin());
    /* args starts with 'run' (the command word) */
    /* the URL and the password from the first two lines of standard input; then the run,
       and a watcher that stops it (SIGINT: a partial result, exit 2) when standard input
       ends: the launcher stopped, or its session lost */
    char *cmd = xasprintf("exec sh -c 'read -r DBGAUGE_DB; read -r DBGAUGE_PASSWORD; export "
                          "DBGAUGE_DB DBGAUGE_PASSWORD; [ -n \"$DBGAUGE_PASSWORD\" ] || unset "
                          "DBGAUGE_PASSWORD; exec 3<&0; \"$@\" </dev/null & p=$!; { while read -r x; "
                          "do :; done <&3; kill -INT $p 2>/dev/null; } & w=$!; wait $p; s=$?; "
                          "kill $w 2>/dev/null; exit $s' sh %s %s %s",
                          bin, args, tail);
    free(bin);
    free(args);
    free(tail);
    return cmd;
}

/* Prints the complete lines of d's standard error, prefixed with its part and host. */
static void print_lines(driver *d, int k, bool flush_partial)
{
    char *p = d->line.buf;
    size_t left = d->line.len;
    while (left) {
        char *nl = memchr(p, '\n', left);
        if (!nl && !flush_partial)
            break;
        size_t n = nl ? (size_t)(nl - p) : left;
        printf("[%d %s] %.*s\n", k, d->tg.host, (int)n, p);
        p += n + (nl != NULL);
        left -= n + (nl != NULL);
    }
    memmove(d->line.buf ? d->line.buf : p, p, left);
    d->line.len = left;
    if (d->line.buf)
        d->line.buf[left] = '\0';
    fflush(stdout);
}

/* Reads every part's output until all sessions have ended. A stop (SIGINT, SIGTERM) ends
 * every part's standard input, which stops its run there: their partial results follow. */
static void pump(driver *d, int n)
{
    struct pollfd *p = xcalloc((size_t)n * 2, sizeof *p);
    bool forwarded = false;
    for (;;) {
        if (dg_stop_requested() && !forwarded) {
            forwarded = true;
            dg_log_info("stopping the parts (their partial results follow)");
            for (int k = 0; k < n; k++)
                if (d[k].ssh.fd >= 0)
                    shutdown(d[k].ssh.fd, SHUT_WR);
        }
        int np = 0, open = 0;
        for (int k = 0; k < n; k++) {
            p[2 * k] = (struct pollfd){.fd = d[k].out_eof ? -1 : d[k].ssh.fd, .events = POLLIN};
            p[2 * k + 1] = (struct pollfd){.fd = d[k].err_eof ? -1 : d[k].ssh.errfd, .events = POLLIN};
            open += !d[k].out_eof + !d[k].err_eof;
            np += 2;
        }
        if (!open)
            break;
        if (poll(p, (nfds_t)np, 1000) < 0 && errno != EINTR)
            break;
        for (int k = 0; k < n; k++) {
            char chunk[16384];
            if (p[2 * k].revents) {
                ssize_t r = read(d[k].ssh.fd, chunk, sizeof chunk);
                if (r > 0)
                    dg_sb_addn(&d[k].out, chunk, (size_t)r);
                else if (r == 0 || errno != EINTR)
                    d[k].out_eof = true;
            }
            if (p[2 * k + 1].revents) {
                ssize_t r = read(d[k].ssh.errfd, chunk, sizeof chunk);
                if (r > 0) {
                    dg_sb_addn(&d[k].line, chunk, (size_t)r);
                    /* the tail, for the message when the part fails */
                    size_t keep = (size_t)r < sizeof d[k].ssh.errtail - 1 ? (size_t)r
                                                                           : sizeof d[k].ssh.errtail - 1;
                    memcpy(d[k].ssh.errtail, chunk + r - keep, keep);
                    d[k].ssh.errtail[keep] = '\0';
                    print_lines(&d[k], k, false);
                } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
                    d[k].err_eof = true;
                    print_lines(&d[k], k, true);
                }
            }
        }
    }
    free(p);
}

static void format_utc(int64_t wall_ns, char *buf, size_t len)
{
    time_t t = (time_t)(wall_ns / DG_NS_PER_S);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The results that came back, written apart when they cannot be merged. */
static void write_parts_apart(json_t **docs, driver *d, int n, const char *base)
{
    for (int k = 0; k < n; k++) {
        if (!docs[k])
            continue;
        char path[1100];
        snprintf(path, sizeof path, "%.*s.part%d.json",
                 (int)(strlen(base) > 5 && !strcmp(base + strlen(base) - 5, ".json") ? strlen(base) - 5
                                                                                   : strlen(base)),
                 base, k);
        dg_err e = DG_ERR_INIT;
        if (dg_result_write(docs[k], path, &e))
            dg_log_error("%s", e.msg);
        else
            dg_log_info("part %d/%d (%s): %s", k, n, d[k].url, path);
    }
}

int dg_cli_drivers_run(dg_options *o)
{
    dg_err err = DG_ERR_INIT;
    driver *d = xcalloc(MAX_DRIVERS, sizeof *d);
    json_t **docs = NULL;
    json_t *merged = NULL;
    int status = 1, n = split_drivers(o->drivers, d, MAX_DRIVERS, &err);
    dg_url u;
    if (n < 0 || dg_url_parse(o->db, &u, &err)) {
        dg_log_error("%s", err.msg);
        free(d);
        return 1;
    }
    char *password = xstrdup(u.password ? u.password : "");
    dg_url_free(&u);
    if (strchr(o->db, '\n') || strchr(password, '\n')) {
        dg_log_error("--drivers: the database URL or its password holds a line break");
        goto out;
    }
    /* 1. versions and clocks */
    double tol_ms = o->max_clock_offset_ns ? (double)o->max_clock_offset_ns / 1e6
                                           : (double)o->interval_ns / 1e6 / 100;
    double setup_s = 0;
    for (int k = 0; k < n; k++) {
        if (probe(&d[k], &err)) {
            dg_log_error("%s", err.msg);
            goto out;
        }
        setup_s = fmax(setup_s, d[k].setup_s);
        double worst = fabs(d[k].offset_ms) + d[k].rtt_ms / 2;
        dg_log_info("driver %d %s: %s, clock %+.1f ms (round trip %.1f ms)", k, d[k].url,
                    "dbgauge " DG_VERSION, d[k].offset_ms, d[k].rtt_ms);
        if (worst > tol_ms) {
            dg_log_error("driver %s: its clock is %+.1f ms off this host's (give or take %.1f ms), "
                         "more than %.1f ms (%s): parts would not share their interval "
                         "boundaries; synchronise the clocks (NTP) or allow more with "
                         "--max-clock-offset",
                         d[k].url, d[k].offset_ms, d[k].rtt_ms / 2, tol_ms,
                         o->max_clock_offset_ns ? "--max-clock-offset" : "1% of the interval");
            goto out;
        }
    }
    /* 2. one start time and one seed */
    double margin_s = fmax(5.0, 4 * setup_s + 0.02 * (double)o->terminals / n);
    int64_t start_ns = dg_wall_ns() + (int64_t)(margin_s * DG_NS_PER_S) + o->warmup_ns;
    start_ns = (start_ns / DG_NS_PER_S + 1) * DG_NS_PER_S;
    char start_at[32];
    format_utc(start_ns, start_at, sizeof start_at);
    dg_log_info("%d drivers, measuring from %s, seed %" PRIu64, n, start_at, o->seed);
    /* 3. the parts */
    for (int k = 0; k < n; k++) {
        char *cmd = part_command(o, k, n, o->seed, start_at);
        int rc = dg_ssh_start(&d[k].ssh, &d[k].tg, cmd, &err);
        free(cmd);
        char *lines = xasprintf("%s\n%s\n", o->db, password);
        if (rc == 0 && dg_ssh_send(&d[k].ssh, lines, strlen(lines)) != 0)
            dg_err_fail(&err, DG_E_IO, "driver %s: %s", d[k].url, dg_ssh_message(&d[k].ssh)), rc = 1;
        memset(lines, 0, strlen(lines));
        free(lines);
        if (rc) {
            dg_log_error("%s", err.msg);
            for (int j = 0; j <= k; j++)
                dg_ssh_end(&d[j].ssh, true, DG_NS_PER_S);
            goto out;
        }
    }
    /* 4. live lines, results, the merge */
    dg_sigsave saved;
    dg_signals_catch(dg_stop_request, &saved);
    pump(d, n);
    dg_signals_restore(&saved);
    docs = xcalloc((size_t)n, sizeof *docs);
    const char **names = xcalloc((size_t)n, sizeof *names);
    int failed_early = 0, ngaps = 0, nback = 0;
    dg_merge_gap *gaps = xcalloc((size_t)n, sizeof *gaps);
    char **whys = xcalloc((size_t)n, sizeof *whys);
    json_t **back = xcalloc((size_t)n, sizeof *back);
    for (int k = 0; k < n; k++) {
        d[k].status = dg_ssh_end(&d[k].ssh, false, 5 * DG_NS_PER_S);
        json_error_t je;
        docs[k] = d[k].out.len ? json_loadb(d[k].out.buf, d[k].out.len, 0, &je) : NULL;
        if (docs[k]) {
            back[nback] = docs[k];
            names[nback++] = d[k].url;
            continue;
        }
        whys[k] = xasprintf("%s: exit %d: %s", d[k].url, d[k].status, dg_ssh_message(&d[k].ssh));
        gaps[ngaps++] = (dg_merge_gap){k, whys[k]};
        failed_early += d[k].status == 1;
        dg_log_error("part %d/%d (%s) ended without a result (exit %d: %s)", k, n, d[k].url,
                     d[k].status, dg_ssh_message(&d[k].ssh));
    }
    bool complete = true;
    int mrc = 1;
    if (ngaps && (failed_early || nback == 0))
        dg_log_error("nothing to merge: %s", failed_early ? "a part failed before it measured anything"
                                                         : "no part returned a result");
    else
        /* the parts' starts may differ by what their clocks may (--max-clock-offset) */
        mrc = dg_result_merge_gaps(back, names, nback, gaps, ngaps,
                                   (double)o->max_clock_offset_ns / 1e6, &merged, &complete, &err);
    if (mrc && nback && !failed_early) {
        dg_log_error("%s", err.msg);
        char path[1024];
        dg_cli_result_path(o, back[0], NULL, path, sizeof path);
        write_parts_apart(docs, d, n, path);
    }
    for (int k = 0; k < n; k++)
        free(whys[k]);
    free(whys);
    free(gaps);
    free(back);
    free(names);
    if (mrc) {
        status = failed_early || ngaps == 0 ? 1 : 2;
        goto out;
    }
    if (ngaps)
        dg_log_error("the run is incomplete: %d of %d parts merged", nback, n);
    dg_doc_driver *dj = xcalloc((size_t)n, sizeof *dj);
    for (int k = 0; k < n; k++)
        dj[k] = (dg_doc_driver){d[k].url, d[k].offset_ms, d[k].rtt_ms, d[k].status};
    dg_doc_set_drivers(merged, dj, n, o->command_line);
    free(dj);
    dg_report_text_run(stdout, merged);
    status = complete ? 0 : 2;
    if (dg_cli_write_result(o, merged, NULL, -1))
        status = 2;
out:
    if (docs)
        for (int k = 0; k < n; k++)
            json_decref(docs[k]);
    free(docs);
    json_decref(merged);
    for (int k = 0; k < n && k < MAX_DRIVERS; k++) {
        dg_sb_free(&d[k].out);
        dg_sb_free(&d[k].line);
    }
    memset(password, 0, strlen(password));
    free(password);
    free(d);
    return status;
}
