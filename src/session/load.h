/*
 * load.h - the session's database preparation (load.c): connecting with the session's
 * settings, the preamble every command shares (inspect the workload's tables, drop,
 * load, attach) and the timed load with its "load" object. Also the session's
 * configuration and UI callbacks, which load.c reads in part (the connection and the
 * load) and session.c (session.h) in full.
 *
 *   dg_session_connect   connects with the session's settings (errors name the redacted URL)
 *   dg_session_prepare   the preamble every command shares: inspect the workload's tables,
 *                        drop / load / refuse as the mode says, attach to the loaded data
 *   dg_session_load      the timed load: per-step timings, database growth, MB/s, as the
 *                        result file's "load" object (results/doc.h names its fields)
 *
 * Ownership: the caller owns the config, the workload and any connection it passes; a
 * returned "load" object belongs to the caller (json_decref).
 */
#ifndef DG_SESSION_LOAD_H
#define DG_SESSION_LOAD_H

#include "backend/backend.h"
#include "session/events.h"
#include "workload/loader.h"
#include "workload/workload.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* What a person sees; every callback may be NULL. `arg` is passed back. */
typedef struct dg_session_ui {
    void *arg;
    /* a line about what the session does next ("the database is empty: loading ...") */
    void (*info)(void *arg, const char *msg);
    /* the run is about to start: doc holds "run" (without outcome), "server", "host" */
    void (*begin)(void *arg, const json_t *doc);
    /* one interval record, as appended to "intervals" or "warmup_intervals"; end_wall_ns:
     * the wall-clock time (ns since the epoch) at which the interval ended */
    void (*interval)(void *arg, const json_t *iv, bool warmup, int64_t end_wall_ns);
    /* the load: before it starts, each finished step, progress, the finished "load" */
    void (*load_begin)(void *arg, const dg_workload *wl, const char *url_redacted, int jobs,
                       uint64_t seed);
    void (*load_step)(void *arg, const dg_load_step *s);
    void (*load_progress)(void *arg, uint64_t rows, uint64_t total, const char *what);
    void (*load_step_begin)(void *arg, const char *kind, const char *name);
    void (*load_done)(void *arg, const json_t *load);
    /* a restore (session/restore.h), every second: the time since it began, the
     * database's size (-1: not known) and the tool's last line of output (redacted);
     * elapsed_s < 0: the restore has ended */
    void (*restore_progress)(void *arg, double elapsed_s, int64_t size_bytes, const char *line);
} dg_session_ui;

typedef struct dg_session_config {
    const char *db;                 /* URL (may hold a password: never printed) */
    const dg_setting *settings;     /* --conn NAME=VALUE, applied to every connection */
    int nsettings;
    dg_workload *wl;                /* opened by the caller */
    uint64_t seed;

    /* load */
    bool reload;                    /* drop the workload's tables and load them again */
    bool no_load;                   /* fail instead of loading an empty database */
    uint64_t size_bytes;            /* pick the scale from the size model (0: wl->scale) */
    int jobs;                       /* parallel load jobs; 0: dg_load_default_jobs */
    bool no_table_stats;            /* skip dg_object_stats after the load */

    /* run */
    int terminals;                  /* this process's terminals (a part's share) */
    /* one part of a run split over several processes (--part K/N; part_n 0: the whole
       run): terminals first_terminal ... first_terminal + terminals - 1 of
       whole_terminals, numbered run-wide */
    int part_k, part_n;
    const char *part_from;          /* "--part", "Kubernetes", "Slurm", "MPI" */
    int first_terminal;
    int whole_terminals;
    int64_t start_at_ns;            /* --start-at: the measured phase's wall-clock start (0: as
                                       soon as the terminals are connected) */
    const char *start_at;           /* as given */
    const char *server_host;        /* --server-host: "ssh://...", "local", "none"; NULL: this
                                       machine's /proc when the server is on it */
    int64_t duration_ns;            /* 0 with transactions > 0 */
    int64_t transactions;           /* per terminal; 0 = by duration */
    int64_t warmup_ns;
    int64_t interval_ns;
    int64_t wait_interval_ns;       /* --wait-profile: the server's waits sampled this often
                                       (session/waits.h); 0: not sampled */
    double rate_tps;                /* 0 = closed loop */
    int64_t think_ns;
    bool think_exponential;
    bool keying_think;              /* the workload's own keying and think times */
    int max_tries;
    int workers;                    /* the events engine's threads; 0: a thread per terminal */
    bool pipeline;                  /* terminals pipeline their transactions */
    const dg_event_spec *events;    /* --event: commands at times into the measured phase */
    const char *db_read;            /* --db-read: replicas for the read-only transactions */
    int nevents;

    /* server settings a sweep had --server-ctl apply (--vary server.NAME): recorded with
     * the value the server shows for each after the restart */
    const dg_setting *server_settings;
    int nserver_settings;

    /* the record */
    const char *command_line;       /* passwords already redacted */
    const json_t *extra;            /* merged into the document last (a sweep's point) */

    const dg_session_ui *ui;
} dg_session_config;

/* Where a session failed, for the exit status (a failed load may leave a partial one). */
typedef enum dg_session_stage {
    DG_STAGE_SETUP = 0, /* before anything changed in the database */
    DG_STAGE_LOAD,      /* while dropping or loading: the database may hold a partial load */
    DG_STAGE_RUN,       /* the terminals could not start */
} dg_session_stage;

/* Connects to cfg->db with cfg->settings (bulk: a loader session). On failure err says
 * "cannot connect to URL: ..." with the URL redacted. 0 or a DG_E_* code. */
int dg_session_connect(const dg_session_config *cfg, bool bulk, dg_conn **out, dg_err *err);

typedef enum dg_prepare_mode {
    DG_PREPARE_RUN,   /* load when empty (or when cfg->reload), refuse a partial load */
    DG_PREPARE_LOAD,  /* load; existing tables are dropped only when cfg->reload */
    DG_PREPARE_CHECK, /* the tables must all exist */
} dg_prepare_mode;

/* The shared preamble of run, load and check on an open connection: inspects the
 * workload's tables, drops and loads as the mode says (the load's "load" object goes to
 * *load when not NULL; NULL when nothing was loaded), then attaches the workload to the
 * data (reading its scale). 0 or a DG_E_* code with *stage saying where it failed; a
 * stopped load (DG_E_STOPPED) leaves its partial "load" object in *load. */
int dg_session_prepare(const dg_session_config *cfg, dg_conn *conn, dg_prepare_mode mode,
                       json_t **load, dg_session_stage *stage, dg_err *err);

/* Loads cfg->wl into the database behind conn (its tables must not exist), timing each
 * step; *load (when not NULL) receives the result file's "load" object. 0 or DG_E_*.
 * Stopped (core/stop.h: SIGINT, SIGTERM) it returns DG_E_STOPPED and still gives *load
 * the steps that finished (the caller marks its document incomplete); conn may then be
 * unusable (interrupted) and must only be closed. */
int dg_session_load(const dg_session_config *cfg, dg_conn *conn, json_t **load, dg_err *err);

/* Parallel load jobs when none were asked: 1 for an engine with one writer at a time
 * (SQLite), else this machine's online cores, at most 4 (they generate the rows; a
 * server takes several writers). */
int dg_load_default_jobs(const dg_conn *conn);

#endif
