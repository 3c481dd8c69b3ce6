/*
 * test_options.c - the command line's option table, walked row by row.
 *
 * Layout: helpers that parse one made-up command line; a walk of every option with a
 * declared range (the value just below and just above the range refused with the range in
 * the message, the bounds themselves accepted: parsing only, nothing runs); a walk that
 * gives every option twice (refused unless the option is repeatable); the same walk over
 * each backend's own settings (dg_backend_option tables); single cases the walks cannot
 * state (a duration that rounds below the resolution, the seed); --part K/N and auto, and
 * how a part's share is cut (dg_part_share).
 */
#include "dgtest.h"

#include "backend/backend.h"
#include "cli/options.h"
#include "core/err.h"
#include "core/part.h"
#include "core/units.h"

#include <float.h>
#include <limits.h>

static const char *const command_names[] = {"run", "load", "check", "sweep", "report", "compare",
                                             "list", "merge"};

/* A command the option applies to. */
static const char *command_for(const dg_cli_optinfo *oi)
{
    for (size_t i = 0; i < sizeof command_names / sizeof command_names[0]; i++)
        if (dg_cli_command(command_names[i]) & oi->cmds)
            return command_names[i];
    return NULL;
}

/* Parses "CMD --NAME VALUE" (VALUE NULL: a flag), twice over when `twice`. Returns
 * dg_cli_parse's code; the message in err. */
static int parse_one(const dg_cli_optinfo *oi, const char *value, bool twice, dg_err *err)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", oi->name);
    char *argv[5];
    int argc = 0;
    argv[argc++] = (char *)command_for(oi);
    for (int k = 0; k < (twice ? 2 : 1); k++) {
        argv[argc++] = opt;
        if (value)
            argv[argc++] = (char *)value;
    }
    dg_options o;
    dg_err_clear(err);
    int rc = dg_cli_parse(argc, argv, &o, err);
    dg_cli_free(&o);
    return rc;
}

/* The value as typed for the option's kind: ns for durations, bytes for sizes, FILE@W. */
static void spell(const dg_cli_optinfo *oi, double v, char *buf, size_t len)
{
    if (!strcmp(oi->kind, "double"))
        snprintf(buf, len, "%.17g", v);
    else if (!strcmp(oi->kind, "duration") || !strcmp(oi->kind, "ms") ||
             !strcmp(oi->kind, "period"))
        snprintf(buf, len, "%.0fns", v);
    else if (!strcmp(oi->kind, "script"))
        snprintf(buf, len, "x.sql@%.0f", v);
    else if (!strcmp(oi->kind, "event"))
        snprintf(buf, len, "%.0fns:true", v);
    else
        snprintf(buf, len, "%.0f", v);
}

static bool is_time(const dg_cli_optinfo *oi)
{
    return !strcmp(oi->kind, "duration") || !strcmp(oi->kind, "ms") || !strcmp(oi->kind, "period") ||
           !strcmp(oi->kind, "event");
}

/* The nearest value above max that the option's parser tells apart from max: durations go
 * through a double, so beyond 2^53 ns one more ns may read back as max. */
static double above(const dg_cli_optinfo *oi)
{
    if (!strcmp(oi->kind, "double"))
        return nextafter(oi->max, DBL_MAX);
    if (!is_time(oi))
        return oi->max + 1;
    for (double step = 1;; step *= 2) {
        char buf[64];
        int64_t ns = 0;
        snprintf(buf, sizeof buf, "%.0fns", oi->max + step); /* the time part of any kind */
        if (dg_parse_duration(buf, 1, &ns) == 0 && (double)ns > oi->max)
            return oi->max + step;
    }
}

static void expect_refused(const dg_cli_optinfo *oi, const char *value)
{
    dg_err err;
    int rc = parse_one(oi, value, false, &err);
    char want[128];
    snprintf(want, sizeof want, "(%s", oi->range);
    if (rc != DG_E_INVAL || !strstr(err.msg, want))
        fprintf(stderr, "  --%s %s: rc %d, message \"%s\" (wanted one with \"%s\")\n", oi->name,
                value, rc, err.msg, want);
    DG_CHECK_INT(rc, DG_E_INVAL);
    DG_CHECK(strstr(err.msg, want) != NULL);
}

static void expect_accepted(const dg_cli_optinfo *oi, const char *value)
{
    dg_err err;
    int rc = parse_one(oi, value, false, &err);
    if (rc != 0)
        fprintf(stderr, "  --%s %s: refused: %s\n", oi->name, value, err.msg);
    DG_CHECK_INT(rc, 0);
}

/* Every option whose kind is a number declares a range (the seed excepted: any 63-bit
 * value), and every range is enforced at both ends. */
static void test_every_range_enforced(void)
{
    static const char *const numeric[] = {"int", "count", "double", "duration", "ms",
                                          "period", "size", "script", "event"};
    dg_cli_optinfo oi;
    int ranged = 0;
    for (size_t i = 0; dg_cli_option_info(i, &oi); i++) {
        bool is_numeric = false;
        for (size_t k = 0; k < sizeof numeric / sizeof numeric[0]; k++)
            is_numeric |= !strcmp(oi.kind, numeric[k]);
        if (is_numeric && !oi.ranged)
            fprintf(stderr, "  --%s (%s) declares no range\n", oi.name, oi.kind);
        DG_CHECK(oi.ranged == is_numeric);
        DG_CHECK(command_for(&oi) != NULL);
        if (!oi.ranged)
            continue;
        ranged++;
        char buf[80];
        /* below the range */
        if (oi.min_exclusive) {
            spell(&oi, oi.min, buf, sizeof buf);
            expect_refused(&oi, buf);
            expect_refused(&oi, "-1");
        } else {
            spell(&oi, !strcmp(oi.kind, "double") ? nextafter(oi.min, -DBL_MAX) : oi.min - 1,
                  buf, sizeof buf);
            expect_refused(&oi, buf);
        }
        /* above it */
        spell(&oi, above(&oi), buf, sizeof buf);
        expect_refused(&oi, buf);
        /* the bounds themselves */
        spell(&oi, oi.min_exclusive ? 1e-9 : oi.min, buf, sizeof buf);
        expect_accepted(&oi, buf);
        spell(&oi, oi.max, buf, sizeof buf);
        expect_accepted(&oi, buf);
        if (oi.zero_ok)
            expect_accepted(&oi, "0");
    }
    DG_CHECK(ranged >= 15); /* the walk saw the table */
}

/* A value the option accepts, for the given-twice walk. */
static const char *some_value(const dg_cli_optinfo *oi, char *buf, size_t len)
{
    if (!strcmp(oi->kind, "flag"))
        return NULL;
    if (!strcmp(oi->kind, "setting"))
        return "a=1";
    if (!strcmp(oi->kind, "string") || !strcmp(oi->kind, "u64"))
        return "1";
    spell(oi, oi->min_exclusive ? 1 : oi->max, buf, len);
    return buf;
}

static void test_given_twice(void)
{
    dg_cli_optinfo oi;
    for (size_t i = 0; dg_cli_option_info(i, &oi); i++) {
        char buf[80], want[80];
        const char *v = some_value(&oi, buf, sizeof buf);
        dg_err err;
        int rc = parse_one(&oi, v, true, &err);
        if (oi.repeatable) {
            if (rc != 0)
                fprintf(stderr, "  --%s twice: %s\n", oi.name, err.msg);
            DG_CHECK_INT(rc, 0);
            continue;
        }
        if (v)
            snprintf(want, sizeof want, "--%s given twice ('%s' and '%s')", oi.name, v, v);
        else
            snprintf(want, sizeof want, "--%s given twice", oi.name);
        DG_CHECK_INT(rc, DG_E_INVAL);
        DG_CHECK_STR(err.msg, want);
    }
}

/* Each built backend's own settings: an int setting refuses min - 1 and max + 1 with its
 * range in the message and takes the bounds themselves. */
static void test_backend_settings(void)
{
    size_t n;
    const dg_backend_entry *cat = dg_backend_catalog(&n);
    int ints = 0;
    for (size_t i = 0; i < n; i++) {
        const dg_backend *be = cat[i].be;
        for (const dg_backend_option *opt = be ? be->options : NULL; opt && opt->name; opt++) {
            if (strcmp(opt->type, "int") != 0)
                continue;
            ints++;
            char v[32], want[96];
            dg_err err;
            snprintf(want, sizeof want, "expected an integer from %lld to %lld", opt->min,
                     opt->max);
            for (int k = 0; k < 2; k++) {
                /* one past each bound; at the type's own limit, a number one
                   digit too long (no overflow in the test itself) */
                if (k == 0 && opt->min == LLONG_MIN)
                    snprintf(v, sizeof v, "-99999999999999999999");
                else if (k == 1 && opt->max == LLONG_MAX)
                    snprintf(v, sizeof v, "99999999999999999999");
                else
                    snprintf(v, sizeof v, "%lld", k == 0 ? opt->min - 1 : opt->max + 1);
                dg_err_clear(&err);
                DG_CHECK_INT(dg_backend_option_check(be, opt->name, v, &err), DG_E_INVAL);
                DG_CHECK(strstr(err.msg, want) != NULL);
            }
            const long long inside[] = {opt->min, opt->max};
            for (int k = 0; k < 2; k++) {
                snprintf(v, sizeof v, "%lld", inside[k]);
                int rc = dg_backend_option_check(be, opt->name, v, &err);
                if (rc)
                    fprintf(stderr, "  %s %s=%s: %s\n", be->name, opt->name, v, err.msg);
                DG_CHECK_INT(rc, 0);
            }
        }
    }
    DG_CHECK(ints >= 1); /* SQLite's busy_timeout at least: SQLite is always built */
}

/* What the walks cannot state: the exact messages of a few refusals. */
static void test_messages(void)
{
    dg_cli_optinfo oi = {.name = "duration", .cmds = DG_CMD_RUN};
    dg_err err;
    /* 100 ns: under the 1 ms resolution of a run's length, refused as 0 is */
    DG_CHECK_INT(parse_one(&oi, "0.0001ms", false, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "--duration 0.0001ms is out of range (1ms to 365d)");
    DG_CHECK_INT(parse_one(&oi, "0", false, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "--duration 0 is out of range (1ms to 365d)");
    oi.name = "scale";
    DG_CHECK_INT(parse_one(&oi, "99999999999", false, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "--scale 99999999999 is out of range (more than 0, up to 100000000)");
    DG_CHECK_INT(parse_one(&oi, "0.00001", false, &err), 0); /* docs: one customer */
    oi.name = "file";
    DG_CHECK_INT(parse_one(&oi, "x.sql@0x10", false, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "invalid weight in 'x.sql@0x10' for --file: expected FILE@WEIGHT, "
                          "WEIGHT a whole number in decimal digits (0 to 2147483647)");
    DG_CHECK_INT(parse_one(&oi, "x.sql@007", false, &err), 0);
    oi.name = "seed"; /* no range: any non-negative 63-bit value */
    DG_CHECK_INT(parse_one(&oi, "9223372036854775807", false, &err), 0);
    DG_CHECK_INT(parse_one(&oi, "-1", false, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "invalid value '-1' for --seed: expected an integer (0 to "
                          "9223372036854775807)");
    DG_CHECK_INT(parse_one(&oi, "9223372036854775808", false, &err), DG_E_INVAL);
}

/* dg_cli_part_resolve on "run -c TERMS --part SPEC [--parts PARTS] --seed 1"; the part
 * resolved as "K/N from". Returns its code; the message in err. */
static int part_of(const char *spec, int64_t terms, int64_t parts, char *got, size_t len,
                   dg_err *err)
{
    dg_options o = {.cmd = DG_CMD_RUN, .part_spec = spec, .parts = parts, .terminals = terms,
                    .seed_given = true};
    *err = (dg_err)DG_ERR_INIT;
    int rc = dg_cli_part_resolve(&o, err);
    snprintf(got, len, "%d/%d %s", o.part_k, o.part_n, o.part_from ? o.part_from : "-");
    return rc;
}

static const char *const launcher_vars[] = {"JOB_COMPLETION_INDEX", "SLURM_PROCID", "SLURM_NTASKS",
                                            "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                                            "PMI_RANK", "PMI_SIZE"};

static void clear_launchers(void)
{
    for (size_t i = 0; i < sizeof launcher_vars / sizeof launcher_vars[0]; i++)
        unsetenv(launcher_vars[i]);
}

static void test_part(void)
{
    char got[64];
    dg_err err;
    clear_launchers();
    DG_CHECK_INT(part_of("1/3", 7, 0, got, sizeof got, &err), 0);
    DG_CHECK_STR(got, "1/3 --part");
    DG_CHECK_INT(part_of("0/1", 1, 0, got, sizeof got, &err), 0);
    static const char *const bad[] = {"3/3", "1/0", "-1/2", "1/-2", "+1/2", "1/ 2", "1/2x", "1", "/2",
                                      "1/", "a/b", "0/10001", "auto2", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        DG_CHECK_INT(part_of(bad[i], 100, 0, got, sizeof got, &err), DG_E_INVAL);
        DG_CHECK(strstr(err.msg, "--part") != NULL);
    }
    DG_CHECK_INT(part_of("3/3", 100, 0, got, sizeof got, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "--part 3/3: parts are numbered from 0, so part 3 of 3 does not exist "
                          "(the last is 2/3)");
    DG_CHECK_INT(part_of("0/4", 3, 0, got, sizeof got, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "--part 0/4: 4 parts need at least 4 terminals, one each (-c is the "
                          "whole run's terminal count, 3)");
    DG_CHECK_INT(part_of("0/2", 2, 2, got, sizeof got, &err), DG_E_INVAL); /* --parts: auto only */
    dg_options o = {.cmd = DG_CMD_RUN, .part_spec = "0/2", .terminals = 2};
    DG_CHECK_INT(dg_cli_part_resolve(&o, &err), DG_E_INVAL);
    DG_CHECK(strstr(err.msg, "--part needs --seed N") != NULL);
    o = (dg_options){.cmd = DG_CMD_RUN, .part_spec = "0/2", .terminals = 2, .seed_given = true,
                     .reload = true};
    DG_CHECK_INT(dg_cli_part_resolve(&o, &err), DG_E_INVAL);
    DG_CHECK(strstr(err.msg, "--reload and --part exclude each other") != NULL);

    /* auto: each launcher's variables, the first set in the documented order wins */
    DG_CHECK_INT(part_of("auto", 8, 0, got, sizeof got, &err), DG_E_INVAL);
    DG_CHECK(strstr(err.msg, "no launcher's part number") != NULL);
    setenv("PMI_RANK", "2", 1);
    setenv("PMI_SIZE", "3", 1);
    DG_CHECK_INT(part_of("auto", 8, 0, got, sizeof got, &err), 0);
    DG_CHECK_STR(got, "2/3 MPI");
    setenv("OMPI_COMM_WORLD_RANK", "0", 1);
    setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
    DG_CHECK_INT(part_of("auto", 8, 0, got, sizeof got, &err), 0);
    DG_CHECK_STR(got, "0/4 MPI");
    setenv("SLURM_PROCID", "1", 1);
    DG_CHECK_INT(part_of("auto", 8, 0, got, sizeof got, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "--part auto: SLURM_PROCID is set but SLURM_NTASKS is not");
    setenv("SLURM_NTASKS", "2", 1);
    DG_CHECK_INT(part_of("auto", 8, 0, got, sizeof got, &err), 0);
    DG_CHECK_STR(got, "1/2 Slurm");
    setenv("SLURM_NTASKS", "x2", 1);
    DG_CHECK_INT(part_of("auto", 8, 0, got, sizeof got, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "--part auto: SLURM_NTASKS=x2 is not a part count");
    setenv("SLURM_NTASKS", "1", 1);
    DG_CHECK_INT(part_of("auto", 8, 0, got, sizeof got, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "--part auto: SLURM_PROCID=1 is not below the part count 1");
    DG_CHECK_INT(part_of("auto", 8, 3, got, sizeof got, &err), DG_E_INVAL); /* --parts: k8s only */
    setenv("JOB_COMPLETION_INDEX", "4", 1);
    DG_CHECK_INT(part_of("auto", 8, 0, got, sizeof got, &err), DG_E_INVAL);
    DG_CHECK(strstr(err.msg, "add --parts N") != NULL);
    DG_CHECK_INT(part_of("auto", 8, 5, got, sizeof got, &err), 0);
    DG_CHECK_STR(got, "4/5 Kubernetes");
    DG_CHECK_INT(part_of("auto", 8, 4, got, sizeof got, &err), DG_E_INVAL);
    DG_CHECK_INT(part_of("auto", 4, 5, got, sizeof got, &err), DG_E_INVAL); /* 5 parts, 4 terminals */
    clear_launchers();

    /* shares: every item exactly once, in part order, sizes differing by at most one */
    for (int64_t total = 0; total <= 40; total++)
        for (int n = 1; n <= 12; n++) {
            int64_t next = 0, lo = INT64_MAX, hi = 0;
            for (int k = 0; k < n; k++) {
                int64_t first, count;
                dg_part_share(total, k, n, &first, &count);
                DG_CHECK_INT(first, next);
                next = first + count;
                lo = count < lo ? count : lo;
                hi = count > hi ? count : hi;
            }
            DG_CHECK_INT(next, total);
            DG_CHECK(hi - lo <= 1);
        }
    int64_t first, count;
    dg_part_share(10, 0, 3, &first, &count); /* the first parts take one more */
    DG_CHECK(first == 0 && count == 4);
    dg_part_share(10, 2, 3, &first, &count);
    DG_CHECK(first == 7 && count == 3);
    dg_part_share(10, 0, 0, &first, &count); /* no part: the whole */
    DG_CHECK(first == 0 && count == 10);
}

int main(void)
{
    DG_RUN(test_part);
    DG_RUN(test_every_range_enforced);
    DG_RUN(test_given_twice);
    DG_RUN(test_backend_settings);
    DG_RUN(test_messages);
    DG_TEST_END();
}
