/*
 * options.h - the command line: one declarative table of options drives parsing,
 * validation and --help for every command.
 *
 * dg_cli_parse() fills a dg_options from argv (after the command word). Values keep the
 * units users typed ("30s", "10GB") converted to ns/bytes, each checked against the range
 * the table declares for it; an option that is not repeatable may be given once.
 * Cross-option checks happen after parsing, in dg_cli_validate(). Errors are returned as messages; only main.c
 * decides to exit.
 */
#ifndef DG_CLI_OPTIONS_H
#define DG_CLI_OPTIONS_H

#include "backend/backend.h"
#include "session/events.h"
#include "workload/workload.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum dg_command {
    DG_CMD_NONE = 0,
    DG_CMD_RUN = 1 << 0,
    DG_CMD_LOAD = 1 << 1,
    DG_CMD_CHECK = 1 << 2,
    DG_CMD_LIST = 1 << 3,
    DG_CMD_RESTORE = 1 << 4,
    DG_CMD_SWEEP = 1 << 8,
    DG_CMD_REPORT = 1 << 9,
    DG_CMD_COMPARE = 1 << 10,
    DG_CMD_MERGE = 1 << 11,
} dg_command;

#define DG_MAX_LIST 64

typedef struct dg_options {
    dg_command cmd;
    const char *cmd_name;
    bool help;

    /* common */
    const char *db;            /* --db / DBGAUGE_DB */
    const char *password_file; /* --password-file: the password of URLs without one */
    bool password_set;         /* dg_cli_validate() has set that password (or
                                  DBGAUGE_PASSWORD's) for dg_url_parse() */
    const char *workload;      /* --workload */
    double scale;              /* --scale (0 = default / from the database); a fraction only
                                  for a workload that takes one (docs: TPoX's factor) */
    uint64_t size_bytes;       /* --size (load): pick the scale from the size model */
    int64_t rows;              /* --rows (workload tables): rows to load, the scale */
    int64_t tables;            /* --tables (workload tables): table count (0 = default) */
    const char *key_range;     /* --key-range (workload tables): hot, all, P% */
    uint64_t seed;             /* --seed */
    bool seed_given;
    bool quiet;
    dg_setting conn[DG_MAX_LIST]; /* --conn NAME=VALUE */
    int nconn;
    dg_setting wlopt[DG_MAX_LIST]; /* --wl-opt NAME=VALUE */
    int nwlopt;

    /* run */
    int64_t terminals;
    int64_t duration_ns;
    bool duration_given;
    int64_t transactions;
    int64_t warmup_ns;
    int64_t interval_ns;
    int64_t wait_interval_ns; /* --wait-profile (0: off) */
    double rate_tps;
    int64_t think_ns;
    bool think_exp;
    bool keying_think;         /* --keying-think: the workload's keying and think times */
    int64_t max_tries;
    int64_t workers;
    bool pipeline;
    const char *json_path;
    const char *interval_log;  /* --interval-log FILE|-: one JSON line per interval */
    const char *metrics_file;  /* --metrics-file FILE: Prometheus text, rewritten each interval */
    const char *hlog;          /* --hlog FILE|-: HdrHistogram interval log */
    const char *results_dir;
    bool no_results;
    dg_script_arg scripts[DG_MAX_LIST]; /* -f FILE[@WEIGHT] */
    dg_event_spec events[DG_MAX_LIST];  /* --event TIME:COMMAND */
    const char *db_read;                /* --db-read URL[,URL...] */
    int nevents;
    int nscripts;
    dg_setting defines[DG_MAX_LIST];    /* -D NAME=VALUE */
    int ndefines;
    const char *mix;
    bool no_load;              /* --no-load: fail instead of loading an empty database */

    bool reload;               /* --reload: drop and load the workload before running */
    const char *start_at;      /* --start-at TIME (RFC 3339) */
    int64_t start_at_ns;       /* its wall time, ns since the epoch (0: none) */
    const char *server_host;   /* --server-host (NULL: automatic) */
    const char *drivers;       /* --drivers ssh://H1,ssh://H2,... */
    int64_t max_clock_offset_ns; /* --max-clock-offset (0: 1% of the interval) */
    int64_t max_skew_ns;       /* merge --max-skew (0: 1% of the interval, at least 50 ms) */
    const char *part_spec;     /* --part K/N or auto */
    int64_t parts;             /* --parts N (--part auto in a Kubernetes Indexed Job) */
    int part_k, part_n;        /* resolved by dg_cli_validate(): part K of N; N 0 = whole run */
    const char *part_from;     /* where K and N came from: "--part", "Kubernetes", "Slurm",
                                  "MPI" (static string; NULL: no part) */

    /* sweep */
    dg_setting vary[DG_MAX_LIST]; /* --vary NAME=V1,V2,... */
    int nvary;
    int64_t repeat;
    double until_ci_pct;       /* --until-ci: repeat a point until its CI half-width is within
                                  this % of the mean (0: off) */
    int64_t max_repeat;        /* --max-repeat: the cap of --until-ci (0: 10) */
    const char *output_dir;
    bool resume;
    const char *server_ctl;    /* server-control command of --vary server.NAME */
    const char *before_each;   /* shell command run before each point ({NAME} placeholders) */
    const char *after_each;

    /* report, compare */
    char **args;               /* positional FILE|DIR arguments (strings borrowed from argv) */
    int nargs;
    const char *output;        /* -o/--output FILE */
    const char *format;        /* --format NAME */
    const char *metric;        /* --metric NAMES (compare) */

    /* load */
    bool drop;
    int64_t jobs;
    bool no_table_stats;       /* --no-table-stats */

    /* for the result file */
    char *command_line;        /* argv joined, passwords redacted (owned) */
    char **argv_copy;          /* what the borrowed strings point into (owned; @FILE read) */
    json_t *options_files;     /* @FILE: [{"file", "text" (redacted)}], NULL when none */
    int argc_copy;
} dg_options;

/* Parses argv[0..argc) = the command word and its options. Returns 0, or DG_E_INVAL with
 * a message in err (values it quotes are redacted: dg_url_redact_text). o is reset first;
 * defaults applied; DBGAUGE_DB honoured; o->command_line is argv redacted, each argument
 * parsed as what it is (a --db value as one URL, a --vary list element by element, anything
 * else by dg_url_redact_text). The strings o borrows are copies: argv itself has its
 * passwords overwritten with '*' before this returns (dg_url_scrub), so the process's
 * command line (ps, /proc/PID/cmdline) no longer shows them. Call dg_cli_free() also after
 * a failure. */
int dg_cli_parse(int argc, char **argv, dg_options *o, dg_err *err);

/* Cross-option checks (after parsing). For the commands that connect, also reads the
 * password of URLs without one (--password-file, else DBGAUGE_PASSWORD) once and hands it
 * to dg_url_set_default_password(). 0 or DG_E_INVAL with a message (never the password). */
int dg_cli_validate(dg_options *o, dg_err *err);

/* Resolves --part (and --parts) into o->part_k, part_n and part_from: "K/N" as given, or
 * "auto" from the launcher's environment (Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX with
 * --parts N; Slurm: SLURM_PROCID / SLURM_NTASKS; MPI: OMPI_COMM_WORLD_RANK / _SIZE, then
 * PMI_RANK / PMI_SIZE). Checks that every part gets a terminal and refuses what a part
 * cannot do alone (--reload). Called by dg_cli_validate(). 0 or DG_E_INVAL with a message. */
int dg_cli_part_resolve(dg_options *o, dg_err *err);

/* Frees what dg_cli_parse() allocated. */
void dg_cli_free(dg_options *o);

/* Sets the option with long name `name` (one that applies to cmd) to `value`, as if
 * "--name value" had been given; flags take "" or "true". For sweeps. 0 or DG_E_INVAL. */
int dg_cli_apply(dg_options *o, dg_command cmd, const char *name, const char *value, dg_err *err);

/* One row of the option table, for tests and tools that walk it (dg_cli_option_info). */
typedef struct dg_cli_optinfo {
    const char *name;   /* long name, without "--" */
    unsigned cmds;      /* the dg_command bits of the commands it applies to */
    const char *kind;   /* "flag", "int", "u64", "duration" (bare number: s), "ms" (bare
                           number: ms), "period" (a duration, 0 = none), "size", "count"
                           (K/M/G suffixes), "double", "string", "setting", "script" */
    bool repeatable;    /* each occurrence adds one (settings, scripts); any other option
                           given twice is refused */
    bool ranged;        /* a range is declared, and every value is checked against it */
    double min, max;    /* ns for durations, bytes for sizes, the weight for scripts */
    bool min_exclusive; /* the value must be more than min */
    bool zero_ok;       /* 0 is accepted as well (a period: none) */
    char range[96];     /* the range as messages show it: "1 to 10000", "1ms to 365d" */
} dg_cli_optinfo;

/* Fills *out with row i of the option table; false (nothing written) past the last row. */
bool dg_cli_option_info(size_t i, dg_cli_optinfo *out);

/* Prints the general help (cmd == DG_CMD_NONE) or a command's help. */
void dg_cli_help(FILE *out, dg_command cmd);

/* The option table and the commands, for what is generated from them (cli/docgen.h: man
 * pages, shell completion). */
typedef struct dg_cli_optdoc {
    const char *lname;
    char sname;          /* 0: none */
    const char *metavar; /* NULL: a flag */
    const char *help;
} dg_cli_optdoc;
/* The k-th option (k from 0) that applies to a command of the mask cmds (dg_command bits)
 * into *out; false past the last. */
bool dg_cli_option_at(unsigned cmds, size_t k, dg_cli_optdoc *out);
/* The i-th command (i from 0): its name, one-line summary and usage line; false past the
 * last. */
bool dg_cli_command_at(size_t i, dg_command *cmd, const char **name, const char **summary,
                       const char **usage);

/* Command by name; DG_CMD_NONE if unknown. */
dg_command dg_cli_command(const char *name);

/* The command word and options as given (argv_copy), each single-quoted for a remote
 * shell, less the options whose long names are in drop (and their values): what a driver
 * host runs for --drivers (cli/drivers.c). Caller frees. */
char *dg_cli_part_command(const dg_options *o, const char *const *drop, int ndrop);

/* --drivers: the hosts' form (ssh://...), at least two, none twice. */
int dg_cli_drivers_check(const dg_options *o, dg_err *err);

#endif
