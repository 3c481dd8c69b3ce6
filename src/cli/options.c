/*
 * options.c - the option table, the parser and the help text.
 *
 * Layout: the table (one row per option: names, kind, commands it belongs to, help,
 * limits, where the value goes), the command table, parsing of one value by kind, the
 * argv walk, cross-option validation, help rendering.
 */
#include "cli/options.h"

#include "core/clock.h"
#include "core/file.h"
#include "core/ssh.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "experiment/sweep.h"
#include "monitor/srvhost.h"
#include "report/render.h"
#include "session/restore_log.h"
#include "workload/workload.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef enum kind {
    K_FLAG,     /* bool */
    K_INT,      /* int64_t within [min, max] */
    K_U64,      /* uint64_t seed */
    K_DURATION, /* int64_t ns within [min, max] (ns); bare numbers are seconds */
    K_MS,       /* int64_t ns within [min, max] (ns); bare numbers are milliseconds */
    K_PERIOD,   /* int64_t ns: 0 (none) or within [min, max] (ns); bare numbers are seconds */
    K_SIZE,     /* uint64_t bytes within [min, max] */
    K_COUNT,    /* int64_t within [min, max], with a K/M/G suffix allowed */
    K_DOUBLE,   /* double within [min, max]; a min of 0 is exclusive: more than 0 */
    K_STRING,   /* const char * (borrowed from argv) */
    K_SETTING,  /* NAME=VALUE appended to a dg_setting list; repeatable */
    K_SCRIPT,   /* FILE[@WEIGHT] appended to the script list, WEIGHT a decimal integer
                   within [min, max]; repeatable */
    K_EVENT,    /* TIME:COMMAND appended to the event list, TIME a duration within
                   [min, max] (ns; bare numbers are seconds); repeatable */
} kind;

#define RUNS (DG_CMD_RUN | DG_CMD_SWEEP)
#define ALL (RUNS | DG_CMD_LOAD | DG_CMD_CHECK)
#define RUNLOAD (RUNS | DG_CMD_LOAD)
/* the commands that connect to a database */
#define DBCMDS (ALL | DG_CMD_RESTORE)
/* the commands that write one result file */
#define RESULTS (RUNLOAD | DG_CMD_RESTORE)
#define REPORTS (DG_CMD_REPORT | DG_CMD_COMPARE)
/* commands that take positional FILE|DIR arguments */
#define POSITIONAL (REPORTS | DG_CMD_MERGE)

typedef struct optdef {
    const char *lname;
    char sname;
    kind k;
    const char *metavar;
    unsigned cmds;
    const char *help;
    size_t off;       /* field in dg_options */
    size_t count_off; /* K_SETTING / K_SCRIPT / K_EVENT: the count field */
    size_t given_off; /* bool set when given (0: none) */
    double min, max;  /* the accepted range (see the kinds), whole numbers except for
                         K_DOUBLE; both 0: none declared. Every value a kind with a range
                         stores, from the command line or a sweep point, is checked. */
} optdef;

/* Duration bounds in ns */
#define B_MS 1e6
#define B_H 3600e9
#define B_DAY 86400e9

#define F(field) offsetof(dg_options, field)

static const optdef optdefs[] = {
    {"db", 0, K_STRING, "URL", DBCMDS,
     "database URL (default sqlite:dbgauge.db, or $DBGAUGE_DB)", F(db), 0, 0, 0, 0},
    {"password-file", 0, K_STRING, "FILE", DBCMDS,
     "password for a URL without one: FILE's first line (else $DBGAUGE_PASSWORD)",
     F(password_file), 0, 0, 0, 0},
    {"workload", 'w', K_STRING, "NAME", ALL,
     "workload: tpcc (default), tpcb[:select-only|:simple-update], tables[:insert|:select], script (see 'dbgauge list')",
     F(workload), 0, 0, 0, 0},
    {"scale", 's', K_DOUBLE, "N", ALL, "scale factor (tpcc: warehouses; tpcb: branches of 100,000 accounts; tables: rows; docs: TPoX's, 1 = 100,000 customers, fractions allowed)", F(scale), 0,
     0, 0, DG_SCALE_MAX},
    {"tables", 0, K_INT, "N", ALL, "tables workload: number of tables tbl_200 ... (default 40)",
     F(tables), 0, 0, 1, 1000},
    {"rows", 0, K_COUNT, "N", RUNLOAD, "tables workload: rows to load over all tables (e.g. 25M); the scale",
     F(rows), 0, 0, 1, 100000000},
    {"key-range", 0, K_STRING, "RANGE", RUNS,
     "tables workload: keys selects draw from: hot (first 1% of ids), all (default), or P%",
     F(key_range), 0, 0, 0, 0},
    {"seed", 0, K_U64, "N", RUNLOAD, "random seed (default: random, printed and recorded)", F(seed),
     0, F(seed_given), 0, 0},
    {"conn", 0, K_SETTING, "NAME=VALUE", DBCMDS,
     "per-connection setting (SQLite PRAGMA, SET parameter ...); repeatable", F(conn), F(nconn), 0,
     0, 0},
    {"wl-opt", 0, K_SETTING, "NAME=VALUE", ALL, "workload-specific option; repeatable", F(wlopt),
     F(nwlopt), 0, 0, 0},
    {"quiet", 'q', K_FLAG, NULL, ALL | DG_CMD_LIST | REPORTS | DG_CMD_MERGE | DG_CMD_RESTORE, "print only results and errors",
     F(quiet), 0, 0, 0, 0},

    {"terminals", 'c', K_INT, "N", RUNS, "concurrent terminals (threads+connections; default 1)",
     F(terminals), 0, 0, 1, 10000},
    {"duration", 'T', K_DURATION, "TIME", RUNS, "measured run time (default 30s)",
     F(duration_ns), 0, F(duration_given), B_MS, 365 * B_DAY},
    {"transactions", 't', K_INT, "N", RUNS, "transactions per terminal instead of a duration",
     F(transactions), 0, 0, 1, 1e12},
    {"warmup", 0, K_DURATION, "TIME", RUNS, "warmup before measuring, reported apart (default 0)",
     F(warmup_ns), 0, 0, 0, 365 * B_DAY},
    {"report-interval", 'P', K_PERIOD, "TIME", RUNS,
     "interval of progress lines and result intervals (default 10s)", F(interval_ns), 0, 0,
     100 * B_MS, B_DAY},
    {"rate", 'R', K_DOUBLE, "TPS", RUNS,
     "target rate, Poisson arrivals; latency counts from the scheduled start", F(rate_tps), 0, 0,
     0.001, 1e9},
    {"think-time", 0, K_MS, "TIME", RUNS,
     "pause after each transaction (bare number = ms; 'exp:TIME' = exponential mean)", F(think_ns), 0,
     0, 0, B_H},
    {"keying-think", 0, K_FLAG, NULL, RUNS,
     "the workload's own keying and think times (tpcc: TPC-C clause 5.2.5)", F(keying_think), 0,
     0, 0, 0},
    {"part", 0, K_STRING, "K/N|auto", DG_CMD_RUN,
     "run part K (0 ... N-1) of one run split over N processes: -c is the whole run's "
     "terminals, this process runs its share; auto: K and N from Kubernetes, Slurm or MPI",
     F(part_spec), 0, 0, 0, 0},
    {"start-at", 0, K_STRING, "TIME", DG_CMD_RUN,
     "start measuring at this wall-clock time (RFC 3339, e.g. 2026-12-06T01:00:00Z; after "
     "--warmup): processes started apart share their interval boundaries",
     F(start_at), 0, 0, 0, 0},
    {"db-read", 0, K_STRING, "URL[,URL...]", RUNS,
     "replicas for the transactions that only read (tpcb:select-only, tpcc order_status and "
     "stock_level, the selects of tables and docs, \\readonly scripts); the rest go to --db",
     F(db_read), 0, 0, 0, 0},
    {"server-host", 0, K_STRING, "TARGET", RUNS | DG_CMD_RESTORE,
     "the database server's host, for its CPU, disk, memory and processes in every interval: "
     "ssh://[USER@]HOST[:PORT] (your ssh; nothing installed there), local (this machine's "
     "/proc: the default when the server is on it) or none",
     F(server_host), 0, 0, 0, 0},
    {"drivers", 0, K_STRING, "ssh://HOST,...", DG_CMD_RUN,
     "run on these driver hosts over your ssh, one part each (--part K/N, one --start-at), "
     "and write their merged result here; dbgauge must be installed there",
     F(drivers), 0, 0, 0, 0},
    {"max-clock-offset", 0, K_DURATION, "TIME", DG_CMD_RUN,
     "--drivers: the largest clock difference accepted between this host and a driver "
     "(default 1% of --report-interval)",
     F(max_clock_offset_ns), 0, 0, 0, B_H},
    {"max-skew", 0, K_DURATION, "TIME", DG_CMD_MERGE,
     "accept parts that started measuring up to this late after --start-at (default 1% of "
     "the interval, at least 50ms: a busy machine may wake a part later)",
     F(max_skew_ns), 0, 0, 0, B_H},
    {"parts", 0, K_INT, "N", DG_CMD_RUN,
     "--part auto in a Kubernetes Indexed Job: the number of parts (the Job's completions)",
     F(parts), 0, 0, 1, 10000},
    {"max-tries", 0, K_INT, "N", RUNS,
     "attempts per transaction on deadlock/serialization/busy errors (default 10)", F(max_tries), 0, 0,
     1, 1000000},
    {"workers", 0, K_INT, "N", RUNS,
     "events engine: N threads run the terminals as fibers ('dbgauge list' says which databases); 0 = a thread per terminal (default)",
     F(workers), 0, 0, 0, 256},
    {"pipeline", 0, K_FLAG, NULL, RUNS,
     "send a transaction's statements without waiting for each answer: one round trip (tpcb, scripts; 'dbgauge list' says which databases)",
     F(pipeline), 0, 0, 0, 0},
    {"mix", 0, K_STRING, "NAME=W,...", RUNS, "change transaction weights", F(mix), 0, 0, 0, 0},
    {"wait-profile", 0, K_MS, "TIME", RUNS,
     "sample what the run's server sessions wait on this often (e.g. 10ms; bare number = ms), "
     "per transaction type, on a connection of its own (PostgreSQL, MariaDB/MySQL, Firebird)",
     F(wait_interval_ns), 0, 0, B_MS, 10e9},
    {"event", 0, K_EVENT, "TIME:COMMAND", RUNS,
     "run a shell command TIME into the measured phase (e.g. 30s:'systemctl restart x'), "
     "recorded and marked on the time charts; repeatable",
     F(events), F(nevents), 0, 0, 365 * B_DAY},
    {"file", 'f', K_SCRIPT, "FILE[@W]", RUNS, "pgbench-style script with weight; repeatable",
     F(scripts), F(nscripts), 0, 0, 2147483647},
    {"define", 'D', K_SETTING, "NAME=VALUE", RUNS, "script variable; repeatable", F(defines),
     F(ndefines), 0, 0, 0},
    {"json", 0, K_STRING, "FILE", RESULTS, "write the result file here ('-': standard output, the rest goes to stderr; default results/...)",
     F(json_path), 0, 0, 0, 0},
    {"interval-log", 0, K_STRING, "FILE", DG_CMD_RUN,
     "write each interval as one JSON line here as it ends ('-': standard output, the rest goes to stderr)",
     F(interval_log), 0, 0, 0, 0},
    {"metrics-file", 0, K_STRING, "FILE", DG_CMD_RUN,
     "rewrite this Prometheus text file (node_exporter's textfile collector) at each interval",
     F(metrics_file), 0, 0, 0, 0},
    {"hlog", 0, K_STRING, "FILE", DG_CMD_RUN,
     "write the measured intervals' histograms here as an HdrHistogram interval log, per transaction type ('-': standard output)",
     F(hlog), 0, 0, 0, 0},
    {"results-dir", 0, K_STRING, "DIR", RESULTS, "directory for result files (default results)",
     F(results_dir), 0, 0, 0, 0},
    {"no-results", 0, K_FLAG, NULL, RESULTS, "do not write a result file", F(no_results), 0, 0, 0,
     0},
    {"no-load", 0, K_FLAG, NULL, RUNS, "fail instead of loading an empty database", F(no_load),
     0, 0, 0, 0},

    {"reload", 0, K_FLAG, NULL, RUNS, "drop and reload the workload's tables before running",
     F(reload), 0, 0, 0, 0},
    {"vary", 0, K_SETTING, "NAME=V1,V2", DG_CMD_SWEEP,
     "vary a run option (terminals, scale, db, rate, ...), conn.NAME, wl.NAME or server.NAME; "
     "repeatable",
     F(vary), F(nvary), 0, 0, 0},
    {"repeat", 0, K_INT, "N", DG_CMD_SWEEP, "run every point N times (default 1)", F(repeat), 0, 0,
     1, 1000},
    {"until-ci", 0, K_DOUBLE, "PCT", DG_CMD_SWEEP,
     "repeat each point until the 95% confidence interval of its throughput (a restore's speed) "
     "is within +/-PCT % of the mean: at least 3 runs (or --repeat), at most --max-repeat",
     F(until_ci_pct), 0, 0, 0, 100},
    {"max-repeat", 0, K_INT, "N", DG_CMD_SWEEP, "with --until-ci: the most runs of a point (default 10)",
     F(max_repeat), 0, 0, 2, 1000},
    {"output-dir", 'o', K_STRING, "DIR", DG_CMD_SWEEP,
     "directory for the result files and experiment.json (default results/sweep-TIME)",
     F(output_dir), 0, 0, 0, 0},
    {"resume", 0, K_FLAG, NULL, DG_CMD_SWEEP, "continue an interrupted sweep in --output-dir",
     F(resume), 0, 0, 0, 0},
    {"server-ctl", 0, K_STRING, "CMD", DG_CMD_SWEEP,
     "for --vary server.NAME: run 'CMD set NAME VALUE' then 'CMD restart' when the values change",
     F(server_ctl), 0, 0, 0, 0},
    {"before-each", 0, K_STRING, "CMD", DG_CMD_SWEEP,
     "shell command before each point; {NAME} is the point's value (URLs without passwords)",
     F(before_each),
     0, 0, 0, 0},
    {"after-each", 0, K_STRING, "CMD", DG_CMD_SWEEP, "shell command after each point", F(after_each),
     0, 0, 0, 0},

    {"drop", 0, K_FLAG, NULL, DG_CMD_LOAD, "drop the workload's tables first if they exist", F(drop),
     0, 0, 0, 0},
    {"jobs", 'j', K_INT, "N", RUNLOAD, "parallel load jobs (default: 1 on SQLite; on a server the machine's cores, at most 4)", F(jobs), 0, 0, 1, 1024},
    {"no-table-stats", 0, K_FLAG, NULL, RESULTS,
     "skip reading the loaded tables' and indexes' statistics (a full pass over a large "
     "SQLite or Firebird database)",
     F(no_table_stats), 0, 0, 0, 0},
    {"size", 0, K_SIZE, "SIZE", RUNLOAD, "pick the scale for about this database size (e.g. 5GB)",
     F(size_bytes), 0, 0, 1, 1e15},

    {"output", 'o', K_STRING, "FILE", REPORTS | DG_CMD_MERGE, "write to FILE (atomically; a device or fifo in place) instead of standard output",
     F(output), 0, 0, 0, 0},
    {"format", 0, K_STRING, "FMT", REPORTS,
     "html, text, markdown, csv or json (default: html when FILE ends in .html, else text)",
     F(format), 0, 0, 0, 0},
    {"metric", 0, K_STRING, "NAMES", DG_CMD_COMPARE,
     "compare only these, comma-separated: tps, p50, p95, p99, cpu, load_speed, load_seconds, "
     "tx_p95, or a workload metric (tpmC, GB_per_h, ...)",
     F(metric), 0, 0, 0, 0},

    {"help", 'h', K_FLAG, NULL, ALL | DG_CMD_LIST | REPORTS | DG_CMD_MERGE | DG_CMD_RESTORE, "show this help", F(help), 0, 0, 0, 0},
};
#define NOPTS (sizeof optdefs / sizeof optdefs[0])

static const struct {
    const char *name;
    dg_command cmd;
    const char *summary;
    const char *usage;
} commands[] = {
    {"run", DG_CMD_RUN, "run a workload and report throughput and latency",
     "dbgauge run [OPTIONS]   (loads the workload first if the database lacks its tables)"},
    {"load", DG_CMD_LOAD, "create and fill a workload's tables, then build indexes",
     "dbgauge load [OPTIONS]"},
    {"restore", DG_CMD_RESTORE, "run your restore command (gbak, pg_restore, ...) and time it like a load",
     "dbgauge restore [OPTIONS] -- COMMAND [ARGS...]   (run as given, no shell)"},
    {"check", DG_CMD_CHECK, "run a workload's consistency checks", "dbgauge check [OPTIONS]"},
    {"list", DG_CMD_LIST, "list workloads and database backends", "dbgauge list"},
    {"sweep", DG_CMD_SWEEP, "run a grid of points varying options, one result file per point",
     "dbgauge sweep --vary NAME=V1,V2,... [--vary ...] [RUN OPTIONS] [-- RESTORE COMMAND...]"},
    {"report", DG_CMD_REPORT, "charts and tables from result files and sweep directories",
     "dbgauge report [OPTIONS] FILE|DIR..."},
    {"compare", DG_CMD_COMPARE, "compare two runs or sweeps, with confidence intervals",
     "dbgauge compare [OPTIONS] A B   (result files, or directories matched point by point)"},
    {"merge", DG_CMD_MERGE, "one result from the parts of a run split over processes (--part)",
     "dbgauge merge [OPTIONS] PART.json...   (every part of one run, once)"},
};
#define NCMDS (sizeof commands / sizeof commands[0])

dg_command dg_cli_command(const char *name)
{
    for (size_t i = 0; i < NCMDS; i++)
        if (!strcmp(commands[i].name, name))
            return commands[i].cmd;
    return DG_CMD_NONE;
}

/* One bound as messages show it, in the unit users type: "10000", "0.001", "1ms", "365d",
 * "1000TB". Durations and sizes take the largest unit that divides them. */
static void format_bound(kind k, double v, char *buf, size_t len)
{
    static const struct {
        double unit;
        const char *name;
    } times[] = {{B_DAY, "d"}, {B_H, "h"}, {60e9, "m"}, {1e9, "s"},
                 {B_MS, "ms"}, {1e3, "us"}, {1, "ns"}},
      sizes[] = {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}, {1, "B"}};
    const bool is_time = k == K_DURATION || k == K_MS || k == K_PERIOD;
    if ((is_time || k == K_SIZE) && v > 0) {
        size_t n = is_time ? sizeof times / sizeof times[0] : sizeof sizes / sizeof sizes[0];
        for (size_t i = 0; i < n; i++) {
            double u = is_time ? times[i].unit : sizes[i].unit;
            if (v >= u && fmod(v, u) == 0) {
                snprintf(buf, len, "%.0f%s", v / u, is_time ? times[i].name : sizes[i].name);
                return;
            }
        }
    }
    snprintf(buf, len, k == K_DOUBLE ? "%.15g" : "%.0f", v);
}

/* The declared range as messages show it: "1 to 10000", "more than 0, up to 100000000",
 * "0 for none, or 100ms to 1d". */
static void range_text(const optdef *d, char *buf, size_t len)
{
    char lo[32], hi[32];
    format_bound(d->k, d->min, lo, sizeof lo);
    format_bound(d->k, d->max, hi, sizeof hi);
    if (d->k == K_DOUBLE && d->min == 0)
        snprintf(buf, len, "more than 0, up to %s", hi);
    else if (d->k == K_PERIOD)
        snprintf(buf, len, "0 for none, or %s to %s", lo, hi);
    else
        snprintf(buf, len, "%s to %s", lo, hi);
}

/* Whether a whole-number value (ns, bytes, a count) lies in the declared range. The bounds
 * are whole numbers a double holds exactly, so the comparison is exact. */
static bool in_range(const optdef *d, int64_t v)
{
    if (d->k == K_PERIOD && v == 0)
        return true;
    return v >= (int64_t)d->min && v <= (int64_t)d->max;
}

static int out_of_range(const optdef *d, const char *val, const char *shown, dg_err *err)
{
    char range[96];
    range_text(d, range, sizeof range);
    return dg_err_fail(err, DG_E_INVAL, "%s %s is out of range (%s)", shown, val, range);
}

/* Stores one value; returns 0 or DG_E_INVAL with a message naming the option, the value and
 * what is accepted (the declared range). */
static int set_value(dg_options *o, const optdef *d, const char *val, const char *shown, dg_err *err)
{
    char *base = (char *)o;
    void *field = base + d->off;
    char range[96];
    range_text(d, range, sizeof range);
    switch (d->k) {
    case K_FLAG:
        *(bool *)field = true;
        break;
    case K_INT: {
        int64_t v;
        if (dg_parse_int(val, INT64_MIN, INT64_MAX, &v))
            return dg_err_fail(err, DG_E_INVAL, "invalid value '%s' for %s: expected an integer (%s)",
                               val, shown, range);
        if (!in_range(d, v))
            return out_of_range(d, val, shown, err);
        *(int64_t *)field = v;
        break;
    }
    case K_COUNT: {
        int64_t v;
        if (dg_parse_count(val, 0, INT64_C(1) << 62, &v))
            return dg_err_fail(err, DG_E_INVAL,
                               "invalid value '%s' for %s: expected a whole number (%s; a K, M or G "
                               "suffix multiplies by 1000s: 25M)",
                               val, shown, range);
        if (!in_range(d, v))
            return out_of_range(d, val, shown, err);
        *(int64_t *)field = v;
        break;
    }
    case K_U64: {
        int64_t v;
        if (dg_parse_int(val, 0, INT64_MAX, &v))
            return dg_err_fail(err, DG_E_INVAL,
                               "invalid value '%s' for %s: expected an integer (0 to %lld)", val,
                               shown, (long long)INT64_MAX);
        *(uint64_t *)field = (uint64_t)v;
        break;
    }
    case K_DURATION:
    case K_MS:
    case K_PERIOD: {
        int64_t ns;
        const char *v = val;
        bool exponential = d->k == K_MS && !strncmp(v, "exp:", 4);
        if (exponential)
            v += 4;
        /* parsed to the ns: a value that rounds to 0 is 0, and refused where 0 is */
        if (dg_parse_duration(v, d->k == K_MS ? DG_NS_PER_MS : DG_NS_PER_S, &ns))
            return dg_err_fail(err, DG_E_INVAL,
                               "invalid duration '%s' for %s: expected e.g. 30s, 500ms, 2m, 1h (%s)",
                               val, shown, range);
        if (!in_range(d, ns))
            return out_of_range(d, val, shown, err);
        if (exponential)
            o->think_exp = true;
        *(int64_t *)field = ns;
        break;
    }
    case K_SIZE: {
        uint64_t b;
        if (dg_parse_size(val, &b))
            return dg_err_fail(err, DG_E_INVAL, "invalid size '%s' for %s: expected e.g. 500MB, 10GB (%s)",
                               val, shown, range);
        if (b > (uint64_t)INT64_MAX || !in_range(d, (int64_t)b))
            return out_of_range(d, val, shown, err);
        *(uint64_t *)field = b;
        break;
    }
    case K_DOUBLE: {
        double x;
        if (dg_parse_double(val, -HUGE_VAL, &x))
            return dg_err_fail(err, DG_E_INVAL, "invalid value '%s' for %s: expected a number (%s)",
                               val, shown, range);
        bool low = d->min == 0 ? !(x > 0) : !(x >= d->min);
        if (low || !(x <= d->max))
            return out_of_range(d, val, shown, err);
        *(double *)field = x;
        break;
    }
    case K_STRING:
        if (!*val)
            return dg_err_fail(err, DG_E_INVAL, "empty value for %s", shown);
        *(const char **)field = val;
        break;
    case K_SETTING: {
        int *count = (int *)(base + d->count_off);
        const char *eq = strchr(val, '=');
        if (!eq || eq == val)
            return dg_err_fail(err, DG_E_INVAL, "invalid value '%s' for %s: expected NAME=VALUE", val,
                               shown);
        if (*count >= DG_MAX_LIST)
            return dg_err_fail(err, DG_E_INVAL, "too many %s options (at most %d)", shown, DG_MAX_LIST);
        dg_setting *list = field;
        list[*count].name = xstrndup(val, (size_t)(eq - val));
        list[*count].value = eq + 1;
        (*count)++;
        break;
    }
    case K_EVENT: {
        int *count = (int *)(base + d->count_off);
        const char *colon = strchr(val, ':');
        char *t = colon ? xstrndup(val, (size_t)(colon - val)) : NULL;
        int64_t ns = 0;
        int bad = !t || dg_parse_duration(t, DG_NS_PER_S, &ns);
        free(t);
        if (bad)
            return dg_err_fail(err, DG_E_INVAL,
                               "invalid value '%s' for %s: expected TIME:COMMAND, TIME e.g. 30s, "
                               "500ms, 2m (%s)",
                               val, shown, range);
        if (!in_range(d, ns))
            return out_of_range(d, val, shown, err);
        if (!colon[1])
            return dg_err_fail(err, DG_E_INVAL, "invalid value '%s' for %s: no command after the time",
                               val, shown);
        if (*count >= DG_MAX_LIST)
            return dg_err_fail(err, DG_E_INVAL, "too many %s options (at most %d)", shown, DG_MAX_LIST);
        dg_event_spec *list = field;
        list[*count].at_ns = ns;
        list[*count].command = colon + 1;
        (*count)++;
        break;
    }
    case K_SCRIPT: {
        int *count = (int *)(base + d->count_off);
        if (*count >= DG_MAX_LIST)
            return dg_err_fail(err, DG_E_INVAL, "too many %s options (at most %d)", shown, DG_MAX_LIST);
        dg_script_arg *list = field;
        const char *at = strrchr(val, '@');
        double w = 1;
        char *path;
        if (at) {
            /* pgbench's spelling: decimal digits (no sign, hex, exponent or fraction) */
            const char *ws = at + 1;
            int64_t v;
            const char *digits = ws + (*ws == '-');
            if (!isdigit((unsigned char)*digits) || dg_parse_int(ws, INT64_MIN, INT64_MAX, &v))
                return dg_err_fail(err, DG_E_INVAL,
                                   "invalid weight in '%s' for %s: expected FILE@WEIGHT, WEIGHT a "
                                   "whole number in decimal digits (%s)",
                                   val, shown, range);
            if (!in_range(d, v))
                return dg_err_fail(err, DG_E_INVAL, "weight %s in '%s' for %s is out of range (%s)",
                                   ws, val, shown, range);
            w = (double)v;
            path = xstrndup(val, (size_t)(at - val));
        } else {
            path = xstrdup(val);
        }
        if (!*path) {
            free(path);
            return dg_err_fail(err, DG_E_INVAL, "empty file name for %s", shown);
        }
        list[*count].path = path;
        list[*count].weight = w;
        (*count)++;
        break;
    }
    }
    if (d->given_off)
        *(bool *)(base + d->given_off) = true;
    return 0;
}

static void set_defaults(dg_options *o)
{
    const char *env = getenv("DBGAUGE_DB");
    o->db = env && *env ? env : "sqlite:dbgauge.db";
    o->terminals = 1;
    o->duration_ns = 30 * DG_NS_PER_S;
    o->interval_ns = 10 * DG_NS_PER_S;
    o->max_tries = 10;
    o->jobs = 0; /* the session picks: dg_load_default_jobs */
    o->results_dir = "results";
    o->repeat = 1;
}

/* How an argument goes out of the process (the command line of result files, and the
 * process's own argument vector once scrubbed): parsed as what it is. */
typedef enum arg_kind {
    ARG_TEXT, /* anything else: dg_url_redact_text (URLs in hook commands, password=...) */
    ARG_URL,  /* a --db value: one URL, dg_url_redact */
    ARG_VARY, /* a --vary NAME=V1,LABEL:V2 value: element by element */
    ARG_SECRET, /* a password in a restore command (gbak -password X, -pX, --password=X):
                   "***" after its first `skip` bytes */
} arg_kind;

/* The argument as it may be shown (caller frees); skip = bytes of it that are no value
 * ("--db=" of an inline value). */
static char *shown_arg(const char *arg, arg_kind k, size_t skip)
{
    const char *val = arg + skip;
    char *v;
    if (k == ARG_URL) {
        v = dg_url_redact(val);
    } else if (k == ARG_SECRET) {
        v = xstrdup("***");
    } else if (k == ARG_VARY && strchr(val, '=')) {
        const char *eq = strchr(val, '=');
        char *name = xstrndup(val, (size_t)(eq - val));
        char *list = dg_sweep_shown_list(name, eq + 1);
        v = xasprintf("%s=%s", name, list);
        free(name);
        free(list);
    } else {
        v = dg_url_redact_text(val);
    }
    char *r = xasprintf("%.*s%s", (int)skip, arg, v);
    free(v);
    return r;
}

/* The command line for result files: every argument as shown_arg() shows it, quoted for a
 * shell where it needs to be. */
static char *join_redacted(int argc, char **argv, const arg_kind *kinds, const size_t *skips)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_add(&sb, "dbgauge");
    for (int i = 0; i < argc; i++) {
        char *r = shown_arg(argv[i], kinds[i], skips[i]);
        bool quote = strpbrk(r, " \t'\"$\\") != NULL;
        dg_sb_printf(&sb, quote ? " '%s'" : " %s", r);
        free(r);
    }
    return dg_sb_take(&sb);
}

/* pgbench's long names for options that mean the same here: accepted as they are. */
static const struct {
    const char *alias, *name;
} aliases[] = {
    {"client", "terminals"},        /* pgbench -c */
    {"time", "duration"},           /* pgbench -T */
    {"progress", "report-interval"}, /* pgbench -P */
};

/* The option named name[0..n) for cmd (an alias of pgbench's included); NULL if none. */
static const optdef *find_long(const char *name, size_t n, unsigned cmd)
{
    const optdef *d = NULL;
    for (size_t a = 0; a < sizeof aliases / sizeof aliases[0]; a++)
        if (strlen(aliases[a].alias) == n && !strncmp(aliases[a].alias, name, n)) {
            name = aliases[a].name;
            n = strlen(name);
            break;
        }
    for (size_t k = 0; k < NOPTS; k++)
        if (strlen(optdefs[k].lname) == n && !strncmp(optdefs[k].lname, name, n) &&
            (!d || (optdefs[k].cmds & cmd)))
            d = &optdefs[k];
    return d;
}

/* Levenshtein distance of a[0..n) and b, up to 64 characters each (more: far). */
static size_t edit_distance(const char *a, size_t n, const char *b)
{
    size_t m = strlen(b);
    if (n > 64 || m > 64)
        return 99;
    size_t row[65];
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* ": did you mean '--terminals'?" for the closest option of cmd within two edits (or a
 * prefix of just one), else "". */
static void suggest(const char *name, size_t n, unsigned cmd, char *out, size_t len)
{
    out[0] = '\0';
    const char *best = NULL;
    size_t bd = 3, prefixes = 0;
    const char *prefix = NULL;
    for (size_t k = 0; k < NOPTS; k++) {
        if (!(optdefs[k].cmds & cmd))
            continue;
        size_t dd = edit_distance(name, n, optdefs[k].lname);
        if (dd < bd) {
            bd = dd;
            best = optdefs[k].lname;
        }
        if (n >= 3 && !strncmp(optdefs[k].lname, name, n)) {
            prefixes++;
            prefix = optdefs[k].lname;
        }
    }
    if (!best && prefixes == 1)
        best = prefix; /* --term: --terminals (a prefix is never taken as the option) */
    if (best)
        snprintf(out, len, ": did you mean '--%s'?", best);
}

/* Walks argv into o; kinds[i] and skips[i] say how argument i is shown (shown_arg), for
 * every argument the walk reached. */
static int parse_argv(int argc, char **argv, dg_options *o, arg_kind *kinds, size_t *skips,
                      int *at, dg_err *err)
{
    memset(o, 0, sizeof *o);
    set_defaults(o);
    if (argc < 1)
        return dg_err_fail(err, DG_E_INVAL, "no command given (try 'dbgauge --help')");
    o->cmd_name = argv[0];
    o->cmd = dg_cli_command(argv[0]);
    if (o->cmd == DG_CMD_NONE) {
        char names[256] = "";
        for (size_t i = 0; i < NCMDS; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     commands[i].name);
        return dg_err_fail(err, DG_E_INVAL, "unknown command '%s' (commands: %s)", argv[0], names);
    }
    if (o->cmd & POSITIONAL)
        o->args = xcalloc((size_t)argc, sizeof *o->args);
    bool only_args = false;
    /* the value each option was given (flags: ""), to refuse an option given twice: the
       later one would silently win */
    const char *given[NOPTS] = {0};
    for (int i = 1; i < argc; i++) {
        *at = i;
        const char *a = argv[i];
        const optdef *d = NULL;
        const char *val = NULL;
        char shown[64];
        if ((o->cmd & (DG_CMD_RESTORE | DG_CMD_SWEEP)) && !strcmp(a, "--")) {
            /* the restore command: run as given; its password options shown as *** */
            o->args = xcalloc((size_t)(argc - i), sizeof *o->args);
            for (int j = i + 1; j < argc; j++)
                o->args[o->nargs++] = argv[j];
            dg_rlog_format f = dg_rlog_detect((const char *const *)o->args);
            for (int j = i + 2; j < argc; j++) {
                const char *p = argv[j - 1], *c = argv[j];
                size_t pl = strlen(p);
                if (f == DG_RLOG_GBAK && pl >= 4 && pl <= 9 && !strncasecmp(p, "-password", pl))
                    kinds[j] = ARG_SECRET;
                else if (!strncmp(c, "--password=", 11))
                    kinds[j] = ARG_SECRET, skips[j] = 11;
                else if (f == DG_RLOG_MARIADB && c[0] == '-' && c[1] == 'p' && c[2])
                    kinds[j] = ARG_SECRET, skips[j] = 2;
            }
            if (argc > i + 1 && !strncmp(argv[i + 1], "--password=", 11))
                kinds[i + 1] = ARG_SECRET, skips[i + 1] = 11;
            break;
        }
        if (o->cmd == DG_CMD_RESTORE && a[0] != '-')
            return dg_err_fail(err, DG_E_INVAL,
                               "unexpected argument '%s': the restore command goes after '--' "
                               "(dbgauge restore --db URL -- COMMAND ARGS...)", a);
        if ((o->cmd & POSITIONAL) && (only_args || a[0] != '-' || !a[1])) {
            o->args[o->nargs++] = argv[i];
            continue;
        }
        if ((o->cmd & POSITIONAL) && !strcmp(a, "--")) {
            only_args = true; /* what follows are file names, even if they start with '-' */
            continue;
        }
        if (a[0] == '-' && a[1] == '-' && a[2]) {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t n = eq ? (size_t)(eq - name) : strlen(name);
            d = find_long(name, n, o->cmd);
            snprintf(shown, sizeof shown, "--%.*s", (int)n, name);
            if (!d) {
                char hint[96];
                suggest(name, n, o->cmd, hint, sizeof hint);
                return dg_err_fail(err, DG_E_INVAL, "unknown option '%s'%s (see 'dbgauge %s --help')",
                                   shown, hint, o->cmd_name);
            }
            if (eq)
                val = eq + 1;
            if (d->k == K_FLAG && val)
                return dg_err_fail(err, DG_E_INVAL, "option '%s' takes no value", shown);
        } else if (a[0] == '-' && a[1] && a[1] != '-') {
            for (size_t k = 0; k < NOPTS; k++)
                if (optdefs[k].sname == a[1] && (!d || (optdefs[k].cmds & o->cmd)))
                    d = &optdefs[k]; /* -o: sweep's --output-dir, report's --output */
            snprintf(shown, sizeof shown, "-%c", a[1]);
            if (!d)
                return dg_err_fail(err, DG_E_INVAL, "unknown option '%s' (see 'dbgauge %s --help')", shown,
                                   o->cmd_name);
            if (a[2]) {
                if (d->k == K_FLAG)
                    return dg_err_fail(err, DG_E_INVAL, "option '%s' takes no value", shown);
                val = a + 2;
            }
        } else {
            return dg_err_fail(err, DG_E_INVAL, "unexpected argument '%s' (options start with '-')", a);
        }
        if (!(d->cmds & o->cmd))
            return dg_err_fail(err, DG_E_INVAL, "option '%s' does not apply to '%s'", shown, o->cmd_name);
        if (d->k != K_FLAG && !val) {
            if (i + 1 >= argc)
                return dg_err_fail(err, DG_E_INVAL, "option '%s' needs a value (%s)", shown, d->metavar);
            val = argv[++i];
        }
        if (val) {
            kinds[i] = d->off == F(db) && d->k == K_STRING ? ARG_URL
                       : !strcmp(d->lname, "vary")          ? ARG_VARY
                                                           : ARG_TEXT;
            skips[i] = (size_t)(val - argv[i]);
        }
        const char **first = &given[d - optdefs];
        if (d->k != K_SETTING && d->k != K_SCRIPT && d->k != K_EVENT) { /* the repeatable kinds */
            if (*first && d->k == K_FLAG)
                return dg_err_fail(err, DG_E_INVAL, "--%s given twice", d->lname);
            if (*first)
                return dg_err_fail(err, DG_E_INVAL, "--%s given twice ('%s' and '%s')", d->lname,
                                   *first, val);
            *first = val ? val : "";
        }
        int rc = set_value(o, d, val ? val : "", shown, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* Overwrites the secrets of argv in place (dg_url_scrub), so that ps and /proc/PID/cmdline
 * show them as '*' from now on. */
static void scrub_argv(int argc, char **argv, const arg_kind *kinds, const size_t *skips)
{
    for (int i = 0; i < argc; i++) {
        if (kinds[i] == ARG_URL)
            dg_url_scrub(argv[i] + skips[i]);
        else if (kinds[i] == ARG_SECRET)
            memset(argv[i] + skips[i], '*', strlen(argv[i] + skips[i]));
        else
            dg_url_scrub_text(argv[i]);
    }
}

/* ---- @FILE: options read from a file ---------------------------------------------------- */

#define MAX_OPTIONS_FILE (1 << 20)

/* Where an argument of the expanded list came from: argv[argi], or line `line` of
 * options file `file` (argi -1). */
typedef struct arg_origin {
    int argi;
    const char *file;
    int line;
} arg_origin;

typedef struct expansion {
    char **argv;
    arg_origin *from;
    int argc, cap;
} expansion;

static void push_arg(expansion *e, char *arg, arg_origin from)
{
    if (e->argc + 1 >= e->cap) {
        e->cap = e->cap ? 2 * e->cap : 32;
        e->argv = xrealloc(e->argv, (size_t)e->cap * sizeof *e->argv);
        e->from = xrealloc(e->from, (size_t)e->cap * sizeof *e->from);
    }
    e->argv[e->argc] = arg;
    e->from[e->argc++] = from;
    e->argv[e->argc] = NULL;
}

/* s[0..n) without the spaces around it and one pair of matching quotes */
static char *trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0])
        s++, n -= 2;
    return xstrndup(s, n);
}

/* The arguments of options file `path` (one option per line, "--name value", "--name=value"
 * or "-c 8"; a line that does not start with '-' is one argument, a file name for report;
 * blank lines and lines starting with '#' are skipped), appended to e; its text, redacted,
 * appended to files. */
static int read_options_file(const char *path, expansion *e, json_t *files, dg_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return dg_err_fail(err, DG_E_INVAL, "cannot read options file '%s': %s", path, strerror(errno));
    char *text = xmalloc(MAX_OPTIONS_FILE + 1);
    size_t len = fread(text, 1, MAX_OPTIONS_FILE + 1, f);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed || len > MAX_OPTIONS_FILE) {
        free(text);
        return dg_err_fail(err, DG_E_INVAL, "cannot read options file '%s': %s", path,
                           failed ? strerror(EIO) : "larger than 1 MiB");
    }
    text[len] = '\0';
    if (memchr(text, '\0', len)) {
        free(text);
        return dg_err_fail(err, DG_E_INVAL, "options file '%s' is not text (it holds a NUL byte)", path);
    }
    int rc = 0, lineno = 0;
    for (char *l = text; *l && rc == 0;) {
        char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        lineno++;
        char *line = trimmed(l, n);
        l = end ? end + 1 : l + n;
        arg_origin from = {-1, path, lineno};
        if (!*line || line[0] == '#') {
            free(line);
        } else if (line[0] == '@') {
            rc = dg_err_fail(err, DG_E_INVAL, "%s:%d: an options file cannot name another ('%s')",
                             path, lineno, line);
            free(line);
        } else if (line[0] != '-') {
            push_arg(e, line, from);
        } else {
            size_t opt = strcspn(line, " \t");
            if (!line[opt]) {
                push_arg(e, line, from);
            } else {
                push_arg(e, xstrndup(line, opt), from);
                push_arg(e, trimmed(line + opt, strlen(line + opt)), from);
                free(line);
            }
        }
    }
    if (rc == 0) {
        char *shown = dg_url_redact_text(text);
        json_array_append_new(files, json_pack("{s:s, s:s}", "file", path, "text", shown));
        free(shown);
    }
    memset(text, 0, len); /* it may hold a password */
    free(text);
    return rc;
}

/* argv with each @FILE after the command replaced by the file's arguments. */
static int expand_argv(int argc, char **argv, expansion *e, json_t **files, dg_err *err)
{
    *e = (expansion){0};
    *files = NULL;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && argv[i][0] == '@' && argv[i][1]) {
            if (!*files)
                *files = json_array();
            int rc = read_options_file(argv[i] + 1, e, *files, err);
            if (rc)
                return rc;
            continue;
        }
        push_arg(e, xstrdup(argv[i]), (arg_origin){i, NULL, 0});
    }
    return 0;
}

int dg_cli_parse(int argc, char **argv, dg_options *o, dg_err *err)
{
    /* the options borrow their strings from a copy (with @FILE read): argv itself is
       scrubbed */
    expansion e;
    json_t *files = NULL;
    int rc = expand_argv(argc, argv, &e, &files, err);
    int n = e.argc;
    char **copy = e.argv;
    arg_kind *kinds = xcalloc((size_t)n + 1, sizeof *kinds);
    size_t *skips = xcalloc((size_t)n + 1, sizeof *skips);
    int at = 0;
    if (rc == 0) {
        rc = parse_argv(n, copy, o, kinds, skips, &at, err);
        if (rc && err && at < n && e.from[at].argi < 0) {
            char *msg = xstrdup(err->msg);
            snprintf(err->msg, sizeof err->msg, "%s:%d: %s", e.from[at].file, e.from[at].line, msg);
            free(msg);
        }
    } else {
        memset(o, 0, sizeof *o);
    }
    o->options_files = files;
    o->argv_copy = copy;
    o->argc_copy = n;
    if (n > 0)
        o->command_line = join_redacted(n, copy, kinds, skips);
    for (int i = 0; i < n; i++) /* the arguments typed: ps and /proc show them scrubbed */
        if (e.from[i].argi >= 0)
            scrub_argv(1, argv + e.from[i].argi, kinds + i, skips + i);
    free(e.from);
    free(kinds);
    free(skips);
    if (rc && err) {
        /* messages quote what was typed: "unexpected argument 'postgres://u:pw@h/db'" */
        char *shown = dg_url_redact_text(err->msg);
        snprintf(err->msg, sizeof err->msg, "%s", shown);
        free(shown);
    }
    return rc;
}

/* Reads the first line of the password file into *out (caller frees). A regular file that
 * group or others may read is refused, as ssh refuses such a key: the password would not be
 * in clear on the command line, but it would be on the disk. Pipes and the like
 * (--password-file <(pass show db)) are taken as they come. */
static int read_password_file(const char *path, char **out, dg_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return dg_err_fail(err, DG_E_INVAL, "cannot read password file '%s': %s", path,
                           strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & (S_IRGRP | S_IROTH))) {
        fclose(f);
        return dg_err_fail(err, DG_E_INVAL,
                           "password file '%s' can be read by group or others: make it private "
                           "(chmod 600 '%s')",
                           path, path);
    }
    char buf[4096];
    bool got = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    size_t n = got ? strcspn(buf, "\r\n") : 0;
    if (got && n == strlen(buf) && n == sizeof buf - 1)
        return dg_err_fail(err, DG_E_INVAL, "the first line of password file '%s' is too long",
                           path);
    if (n == 0)
        return dg_err_fail(err, DG_E_INVAL, "password file '%s' has no password on its first line",
                           path);
    *out = xstrndup(buf, n);
    memset(buf, 0, sizeof buf);
    return 0;
}

/* --password-file, else DBGAUGE_PASSWORD: the password of URLs that have none. Once per
 * process (a sweep validates each point's copy of the options again). */
static int set_password(dg_options *o, dg_err *err)
{
    if (o->password_set)
        return 0;
    if (o->password_file) {
        char *pw = NULL;
        int rc = read_password_file(o->password_file, &pw, err);
        if (rc)
            return rc;
        dg_url_set_default_password(pw);
        free(pw);
    } else {
        const char *env = getenv("DBGAUGE_PASSWORD");
        if (env && *env)
            dg_url_set_default_password(env);
    }
    o->password_set = true;
    return 0;
}

int dg_cli_validate(dg_options *o, dg_err *err)
{
    if (o->help)
        return 0;
    if ((o->cmd & DBCMDS) && set_password(o, err))
        return DG_E_INVAL;
    if (o->cmd == DG_CMD_RESTORE && o->nargs < 1)
        return dg_err_fail(err, DG_E_INVAL,
                           "restore needs the command to run after '--' (dbgauge restore --db URL "
                           "-- gbak -c -v -st tdrw BACKUP DATABASE)");
    if (o->cmd == DG_CMD_RESTORE && o->no_results && o->json_path)
        return dg_err_fail(err, DG_E_INVAL, "--json and --no-results exclude each other");
    if (o->cmd & DBCMDS) {
        /* a malformed URL (or a label glued to one: "pg:postgres://...", which a backend
           would take for another server) is refused here, before anything connects */
        dg_url u;
        if (dg_url_parse(o->db, &u, err))
            return DG_E_INVAL;
        dg_url_free(&u);
    }
    if (o->cmd == DG_CMD_MERGE && o->nargs < 1)
        return dg_err_fail(err, DG_E_INVAL, "merge needs the result files of a run's parts (PART.json...)");
    if (o->cmd & REPORTS) {
        dg_rep_format f;
        if (o->cmd == DG_CMD_REPORT && o->nargs < 1)
            return dg_err_fail(err, DG_E_INVAL, "report needs result files or directories (FILE|DIR...)");
        if (o->cmd == DG_CMD_COMPARE && o->nargs != 2)
            return dg_err_fail(err, DG_E_INVAL,
                               "compare needs two result files or directories (A B), got %d", o->nargs);
        if (o->format && dg_rep_format_parse(o->format, &f) != 0)
            return dg_err_fail(err, DG_E_INVAL,
                               "unknown format '%s' for --format (html, text, markdown, csv, json)",
                               o->format);
    }
    if (o->cmd == DG_CMD_SWEEP) {
        if (o->nvary == 0)
            return dg_err_fail(err, DG_E_INVAL, "sweep needs at least one --vary NAME=V1,V2,...");
        if (o->json_path)
            return dg_err_fail(err, DG_E_INVAL, "--json names one file: a sweep writes one per point into --output-dir");
        if (o->max_repeat && o->until_ci_pct <= 0)
            return dg_err_fail(err, DG_E_INVAL, "--max-repeat caps --until-ci: give --until-ci PCT too");
        if (o->until_ci_pct > 0 && o->repeat > (o->max_repeat ? o->max_repeat : 10))
            return dg_err_fail(err, DG_E_INVAL,
                               "--repeat %lld is more than --max-repeat %lld: with --until-ci, "
                               "--repeat is the fewest runs of a point",
                               (long long)o->repeat, (long long)(o->max_repeat ? o->max_repeat : 10));
        if (o->resume && !o->output_dir)
            return dg_err_fail(err, DG_E_INVAL, "--resume needs the --output-dir of the sweep to continue");
        /* the server's control command: a path in it is taken from the current directory;
           one that cannot run would fail the first point that needs it (exit 127) */
        if (o->server_ctl) {
            size_t w = strcspn(o->server_ctl, " \t");
            char *prog = xstrndup(o->server_ctl, w);
            bool bad = strchr(prog, '/') && access(prog, X_OK) != 0;
            int e = errno;
            if (bad) {
                int rc = dg_err_fail(err, DG_E_INVAL,
                                     "--server-ctl '%s' cannot be run: %s (a relative path is "
                                     "taken from the current directory)",
                                     prog, strerror(e));
                free(prog);
                return rc;
            }
            free(prog);
        }
    }
    if (o->cmd == DG_CMD_RUN || o->cmd == DG_CMD_SWEEP) {
        if (o->transactions > 0 && o->duration_given)
            return dg_err_fail(err, DG_E_INVAL, "--duration and --transactions exclude each other");
        /* the ranges of --duration, --report-interval, --rate ... are the option table's,
           checked as each value is stored (set_value) */
        if (o->transactions > 0)
            o->duration_ns = 0;
        if (o->rate_tps > 0 && o->think_ns > 0)
            return dg_err_fail(err, DG_E_INVAL,
                               "--rate and --think-time exclude each other (a rate already paces terminals)");
        if (o->keying_think && (o->rate_tps > 0 || o->think_ns > 0))
            return dg_err_fail(err, DG_E_INVAL,
                               "--keying-think excludes --rate and --think-time (it paces terminals itself)");
        if (o->nscripts > 0 && o->workload && strcmp(o->workload, "script") != 0)
            return dg_err_fail(err, DG_E_INVAL, "-f goes with --workload script (or no --workload), not '%s'",
                               o->workload);
        if (o->ndefines > 0 && o->nscripts == 0)
            return dg_err_fail(err, DG_E_INVAL, "-D defines script variables: it needs -f scripts");
        if (o->no_results && o->json_path)
            return dg_err_fail(err, DG_E_INVAL, "--json and --no-results exclude each other");
        /* one output at most on standard output */
        const char *outs[] = {o->no_results ? NULL : o->json_path, o->interval_log, o->hlog};
        const char *names[] = {"--json", "--interval-log", "--hlog"};
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++)
                if (outs[i] && outs[j] && dg_file_is_stdout(outs[i]) && dg_file_is_stdout(outs[j]))
                    return dg_err_fail(err, DG_E_INVAL,
                                       "%s and %s both name standard output: send one of them "
                                       "to a file",
                                       names[i], names[j]);
        if (o->metrics_file && (dg_file_is_stdout(o->metrics_file)))
            return dg_err_fail(err, DG_E_INVAL,
                               "--metrics-file is rewritten whole at each interval: name a file, "
                               "not standard output (--interval-log - streams the intervals)");
        if (o->metrics_file && o->drivers)
            return dg_err_fail(err, DG_E_INVAL,
                               "--metrics-file goes with one process, not --drivers (give each "
                               "part its own with --part)");
        if (o->hlog && o->drivers)
            return dg_err_fail(err, DG_E_INVAL,
                               "--hlog goes with one process, not --drivers (the merged "
                               "histograms are in the result file)");
        if (o->interval_log && o->drivers)
            return dg_err_fail(err, DG_E_INVAL,
                               "--interval-log goes with one process, not --drivers (each host's "
                               "lines are shown as they come; the merged intervals are in the "
                               "result file)");
    }
    if (o->drivers) {
        const char *clash = o->part_spec ? "--part" : o->parts ? "--parts" : o->start_at ? "--start-at"
                            : o->reload ? "--reload" : o->no_results ? "--no-results" : NULL;
        if (clash)
            return dg_err_fail(err, DG_E_INVAL,
                               "--drivers runs one part per host and picks the start time itself: "
                               "leave out %s", clash);
        if (dg_cli_drivers_check(o, err) != 0)
            return DG_E_INVAL;
    } else if (o->max_clock_offset_ns) {
        return dg_err_fail(err, DG_E_INVAL, "--max-clock-offset applies to --drivers");
    }
    if ((o->part_spec || o->parts) && dg_cli_part_resolve(o, err) != 0)
        return DG_E_INVAL;
    if (o->start_at) {
        if (dg_parse_rfc3339(o->start_at, &o->start_at_ns) != 0)
            return dg_err_fail(err, DG_E_INVAL,
                               "invalid value '%s' for --start-at: expected an RFC 3339 time, "
                               "e.g. 2026-12-06T01:00:00Z (UTC) or 2026-12-06T02:00:00+01:00",
                               o->start_at);
        int64_t now = dg_wall_ns();
        char shown[32];
        dg_format_iso8601(now, shown, sizeof shown);
        if (o->start_at_ns - o->warmup_ns <= now)
            return dg_err_fail(err, DG_E_INVAL,
                               "--start-at %s is already past%s (now %s): pick a time that "
                               "leaves the terminals room to connect",
                               o->start_at, o->warmup_ns ? " once --warmup is taken off" : "", shown);
        if (o->start_at_ns - now > 7 * 24 * 3600 * DG_NS_PER_S)
            return dg_err_fail(err, DG_E_INVAL,
                               "--start-at %s is more than 7 days away (now %s)", o->start_at, shown);
    }
    if (o->server_host && strcmp(o->server_host, "none") != 0 &&
        dg_srvhost_check_target(o->server_host, err) != 0)
        return DG_E_INVAL;
    if (o->size_bytes && o->scale)
        return dg_err_fail(err, DG_E_INVAL, "--size and --scale exclude each other");
    if (o->rows && (o->scale || o->size_bytes))
        return dg_err_fail(err, DG_E_INVAL, "--rows excludes --scale and --size (it is the scale)");
    if (!o->seed_given) {
        /* a fresh seed each run, recorded so the run can be repeated */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        o->seed = ((uint64_t)ts.tv_nsec * 2654435761u) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 32);
        o->seed &= (uint64_t)INT64_MAX;
    }
    return 0;
}

int dg_cli_apply(dg_options *o, dg_command cmd, const char *name, const char *value, dg_err *err)
{
    for (size_t k = 0; k < NOPTS; k++) {
        const optdef *d = &optdefs[k];
        if (strcmp(d->lname, name) != 0)
            continue;
        char shown[64];
        snprintf(shown, sizeof shown, "--%s", name);
        if (!(d->cmds & cmd))
            return dg_err_fail(err, DG_E_INVAL, "option '%s' cannot be varied", shown);
        if (d->k == K_FLAG) {
            bool on = !*value || !strcmp(value, "true") || !strcmp(value, "1") || !strcmp(value, "on");
            *(bool *)((char *)o + d->off) = on;
            return 0;
        }
        return set_value(o, d, value, shown, err);
    }
    return dg_err_fail(err, DG_E_INVAL, "unknown option '--%s'", name);
}

bool dg_cli_option_info(size_t i, dg_cli_optinfo *out)
{
    static const char *const kinds[] = {
        [K_FLAG] = "flag",     [K_INT] = "int",       [K_U64] = "u64",
        [K_DURATION] = "duration", [K_MS] = "ms",     [K_PERIOD] = "period",
        [K_SIZE] = "size",     [K_COUNT] = "count",   [K_DOUBLE] = "double",
        [K_STRING] = "string", [K_SETTING] = "setting", [K_SCRIPT] = "script",
        [K_EVENT] = "event",
    };
    if (i >= NOPTS)
        return false;
    const optdef *d = &optdefs[i];
    memset(out, 0, sizeof *out);
    out->name = d->lname;
    out->cmds = d->cmds;
    out->kind = kinds[d->k];
    out->repeatable = d->k == K_SETTING || d->k == K_SCRIPT || d->k == K_EVENT;
    out->ranged = d->min != 0 || d->max != 0;
    out->min = d->min;
    out->max = d->max;
    out->min_exclusive = d->k == K_DOUBLE && d->min == 0;
    out->zero_ok = d->k == K_PERIOD;
    if (out->ranged)
        range_text(d, out->range, sizeof out->range);
    return true;
}

void dg_cli_free(dg_options *o)
{
    for (int i = 0; i < o->nconn; i++)
        free((char *)o->conn[i].name);
    for (int i = 0; i < o->nwlopt; i++)
        free((char *)o->wlopt[i].name);
    for (int i = 0; i < o->nvary; i++)
        free((char *)o->vary[i].name);
    for (int i = 0; i < o->ndefines; i++)
        free((char *)o->defines[i].name);
    for (int i = 0; i < o->nscripts; i++)
        free((char *)o->scripts[i].path);
    free(o->args);
    free(o->command_line);
    json_decref(o->options_files);
    for (int i = 0; i < o->argc_copy; i++)
        free(o->argv_copy[i]);
    free(o->argv_copy);
    memset(o, 0, sizeof *o);
}

void dg_cli_help(FILE *out, dg_command cmd)
{
    if (cmd == DG_CMD_NONE) {
        fprintf(out, "dbgauge %s - database performance test system\n\n", DG_VERSION);
        fputs("usage: dbgauge COMMAND [OPTIONS]\n\ncommands:\n", out);
        for (size_t i = 0; i < NCMDS; i++)
            fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
        fputs("\n'dbgauge COMMAND --help' shows a command's options.\n"
              "'dbgauge --version' prints the version.\n"
              "'dbgauge COMMAND @FILE' reads options from FILE, one per line ('#': comments).\n\n",
              out);
        fputs("databases (--db URL):\n", out);
        size_t n;
        const dg_backend_entry *cat = dg_backend_catalog(&n);
        for (size_t i = 0; i < n; i++) {
            const dg_backend *be = cat[i].be;
            if (!be)
                continue;
            fprintf(out, "  %s\n", be->url_help);
            /* the backend's own settings, from its option table */
            int col = fprintf(out, "    settings:");
            for (const dg_backend_option *opt = be->options; opt && opt->name; opt++) {
                if (col + (int)strlen(opt->name) + 2 > 88)
                    col = fprintf(out, "\n             ");
                col += fprintf(out, " %s%s", opt->name, opt[1].name ? "," : "");
            }
            fprintf(out, "%s\n", be->other_options ? " (others: see 'dbgauge list')" : "");
        }
        fputs("  ('dbgauge list' shows each setting's type, range and meaning)\n", out);
        fputs("\nexample: dbgauge run --workload tpcb --terminals 4 --duration 60s\n", out);
        return;
    }
    size_t ci = 0;
    for (size_t i = 0; i < NCMDS; i++)
        if (commands[i].cmd == cmd)
            ci = i;
    fprintf(out, "usage: %s\n%s\n\noptions:\n", commands[ci].usage, commands[ci].summary);
    for (size_t k = 0; k < NOPTS; k++) {
        const optdef *d = &optdefs[k];
        if (!(d->cmds & cmd))
            continue;
        char left[64];
        if (d->sname)
            snprintf(left, sizeof left, "-%c, --%s%s%s", d->sname, d->lname, d->metavar ? " " : "",
                     d->metavar ? d->metavar : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", d->lname, d->metavar ? " " : "",
                     d->metavar ? d->metavar : "");
        fprintf(out, "  %-28s %s\n", left, d->help);
    }
    if (cmd == DG_CMD_MERGE) {
        fputs("\nPART.json: the result file of each part of one run (run --part K/N, with one\n"
              "--start-at). See docs/usage.md.\n", out);
        fputs("exit status: 0 merged, 1 usage error or parts that do not belong together (nothing\n"
              "written), 2 merged but a part did not complete its run\n", out);
    } else if (cmd == DG_CMD_RESTORE) {
        fputs("\nCOMMAND: your restore tool; its steps are read from gbak -v -st tdrw, pg_restore\n"
              "--verbose and psql -f. The URL's user and password reach it in the environment it\n"
              "reads (PGPASSWORD, ISC_PASSWORD, MYSQL_PWD ...). See docs/usage.md.\n"
              "example: dbgauge restore --db firebird://SYSDBA:pw@db1//data/x.fdb -- \\\n"
              "             gbak -c -v -st tdrw x.fbk db1:/data/x.fdb\n", out);
        fputs("exit status: 0 restored, 1 usage error or the command failed (result written),\n"
              "2 stopped by SIGINT or SIGTERM (result written)\n", out);
    } else if (cmd & REPORTS) {
        fputs("\nDIR: a sweep directory (experiment.json + one result file per point) or any\n"
              "directory of result files. See docs/reports.md.\n", out);
        fputs("exit status: 0 success, 1 usage error or unreadable input (nothing written)\n", out);
    } else if (cmd != DG_CMD_LIST) {
        fputs("\ndurations take units (500ms, 30s, 5m, 1h); sizes too (500MB, 10GB, 1GiB).\n", out);
        fputs("exit status: 0 success, 1 usage or configuration error, 2 run aborted or incomplete\n", out);
    }
}

char *dg_cli_part_command(const dg_options *o, const char *const *drop, int ndrop)
{
    char *line = NULL;
    char **argv = o->argv_copy;
    for (int i = 0; i < o->argc_copy; i++) {
        const char *a = argv[i];
        const optdef *d = NULL;
        bool inline_val = false;
        if (i > 0 && a[0] == '-' && a[1] == '-' && a[2]) {
            const char *name = a + 2, *eq = strchr(name, '=');
            d = find_long(name, eq ? (size_t)(eq - name) : strlen(name), o->cmd);
            inline_val = eq != NULL;
        } else if (i > 0 && a[0] == '-' && a[1] && a[1] != '-') {
            for (size_t k = 0; k < NOPTS; k++)
                if (optdefs[k].sname == a[1] && (!d || (optdefs[k].cmds & o->cmd)))
                    d = &optdefs[k];
            inline_val = a[2] != '\0';
        }
        bool takes = d && d->k != K_FLAG && !inline_val && i + 1 < o->argc_copy;
        bool skip = false;
        for (int k = 0; d && k < ndrop; k++)
            skip |= !strcmp(d->lname, drop[k]);
        if (!skip) {
            dg_ssh_quote(&line, a);
            if (takes)
                dg_ssh_quote(&line, argv[i + 1]);
        }
        if (takes)
            i++;
    }
    return line ? line : xstrdup("");
}

bool dg_cli_option_at(unsigned cmds, size_t k, dg_cli_optdoc *out)
{
    for (size_t i = 0; i < NOPTS; i++) {
        if (!(optdefs[i].cmds & cmds))
            continue;
        if (k-- > 0)
            continue;
        *out = (dg_cli_optdoc){optdefs[i].lname, optdefs[i].sname,
                                optdefs[i].k == K_FLAG ? NULL : optdefs[i].metavar, optdefs[i].help};
        return true;
    }
    return false;
}

bool dg_cli_command_at(size_t i, dg_command *cmd, const char **name, const char **summary,
                       const char **usage)
{
    if (i >= NCMDS)
        return false;
    *cmd = commands[i].cmd;
    *name = commands[i].name;
    *summary = commands[i].summary;
    *usage = commands[i].usage;
    return true;
}
