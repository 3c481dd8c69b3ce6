/*
 * part.c - --part K/N and --part auto: which share of a run split over several processes
 * this one runs, from the command line or from the launcher that started it.
 *
 * Launchers that give each process its rank, read by --part auto in this order (the first
 * whose variables are set wins): Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX; the part
 * count is the Job's completions, which Kubernetes does not export: --parts N), Slurm
 * (SLURM_PROCID, SLURM_NTASKS), Open MPI (OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE) and
 * MPICH / Hydra / PMI launchers (PMI_RANK, PMI_SIZE).
 */
#include "cli/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 10000

/* A whole number 0..max written with digits alone (no sign, no space, no suffix). */
static bool parse_count(const char *s, size_t len, long max, long *out)
{
    if (len == 0 || len > 9)
        return false;
    long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v > max)
        return false;
    *out = v;
    return true;
}

/* An environment variable holding a count, or -1 when unset; -2 when set but not a count
 * (the caller names it). */
static long env_count(const char *name)
{
    const char *v = getenv(name);
    if (!v)
        return -1;
    long n;
    return parse_count(v, strlen(v), 1000000000L, &n) ? n : -2;
}

static int from_env(dg_options *o, const char *who, const char *kname, const char *nname,
                    long n_given, dg_err *err)
{
    long k = env_count(kname);
    long n = nname ? env_count(nname) : n_given;
    if (k == -2)
        return dg_err_fail(err, DG_E_INVAL, "--part auto: %s=%s is not a part number", kname,
                           getenv(kname));
    if (n == -2)
        return dg_err_fail(err, DG_E_INVAL, "--part auto: %s=%s is not a part count", nname,
                           getenv(nname));
    if (n < 1 || n > MAX_PARTS)
        return dg_err_fail(err, DG_E_INVAL, "--part auto: %s says %ld parts (1 ... %d)", who, n,
                           MAX_PARTS);
    if (k >= n)
        return dg_err_fail(err, DG_E_INVAL, "--part auto: %s=%ld is not below the part count %ld",
                           kname, k, n);
    o->part_k = (int)k;
    o->part_n = (int)n;
    o->part_from = who;
    return 0;
}

static int resolve_auto(dg_options *o, dg_err *err)
{
    if (getenv("JOB_COMPLETION_INDEX")) {
        if (!o->parts)
            return dg_err_fail(err, DG_E_INVAL,
                               "--part auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed "
                               "Job), which does not say how many parts there are: add --parts N, "
                               "the Job's completions");
        return from_env(o, "Kubernetes", "JOB_COMPLETION_INDEX", NULL, (long)o->parts, err);
    }
    if (o->parts)
        return dg_err_fail(err, DG_E_INVAL,
                           "--parts goes with --part auto in a Kubernetes Indexed Job "
                           "(JOB_COMPLETION_INDEX is not set)");
    static const struct {
        const char *who, *k, *n;
    } launchers[] = {
        {"Slurm", "SLURM_PROCID", "SLURM_NTASKS"},
        {"MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
        {"MPI", "PMI_RANK", "PMI_SIZE"},
    };
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
        if (!getenv(launchers[i].k))
            continue;
        if (!getenv(launchers[i].n))
            return dg_err_fail(err, DG_E_INVAL, "--part auto: %s is set but %s is not",
                               launchers[i].k, launchers[i].n);
        return from_env(o, launchers[i].who, launchers[i].k, launchers[i].n, 0, err);
    }
    return dg_err_fail(err, DG_E_INVAL,
                       "--part auto: no launcher's part number in the environment "
                       "(JOB_COMPLETION_INDEX with --parts N, SLURM_PROCID, "
                       "OMPI_COMM_WORLD_RANK or PMI_RANK); give --part K/N");
}

int dg_cli_part_resolve(dg_options *o, dg_err *err)
{
    o->part_k = 0;
    o->part_n = 0;
    o->part_from = NULL;
    if (!o->part_spec)
        return dg_err_fail(err, DG_E_INVAL, "--parts goes with --part auto");
    if (!strcmp(o->part_spec, "auto")) {
        if (resolve_auto(o, err) != 0)
            return DG_E_INVAL;
    } else {
        const char *slash = strchr(o->part_spec, '/');
        long k, n;
        if (!slash || !parse_count(o->part_spec, (size_t)(slash - o->part_spec), MAX_PARTS, &k) ||
            !parse_count(slash + 1, strlen(slash + 1), MAX_PARTS, &n) || n < 1)
            return dg_err_fail(err, DG_E_INVAL,
                               "invalid value '%s' for --part (K/N: part K, 0 ... N-1, of N parts "
                               "(1 ... %d), e.g. 0/2 and 1/2; or auto)",
                               o->part_spec, MAX_PARTS);
        if (k >= n)
            return dg_err_fail(err, DG_E_INVAL,
                               "--part %s: parts are numbered from 0, so part %ld of %ld does not "
                               "exist (the last is %ld/%ld)",
                               o->part_spec, k, n, n - 1, n);
        if (o->parts)
            return dg_err_fail(err, DG_E_INVAL, "--parts goes with --part auto, not --part %s",
                               o->part_spec);
        o->part_k = (int)k;
        o->part_n = (int)n;
        o->part_from = "--part";
    }
    if (o->terminals < o->part_n)
        return dg_err_fail(err, DG_E_INVAL,
                           "--part %d/%d: %d parts need at least %d terminals, one each (-c is "
                           "the whole run's terminal count, %lld)",
                           o->part_k, o->part_n, o->part_n, o->part_n, (long long)o->terminals);
    if (!o->seed_given)
        return dg_err_fail(err, DG_E_INVAL,
                           "--part needs --seed N, the same for every part: the parts draw one "
                           "run's random streams (each terminal its own, by its run-wide number)");
    if (o->reload)
        return dg_err_fail(err, DG_E_INVAL,
                           "--reload and --part exclude each other: every part would reload; "
                           "load once with 'dbgauge load', then start the parts");
    return 0;
}
