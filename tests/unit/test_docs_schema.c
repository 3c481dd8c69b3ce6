/*
 * test_docs_schema.c - unit tests of workload/docs/schema.c, the XML Schema validation of
 * the docs workload's documents: every generated document of the three kinds, and every
 * document the edits (U1..U6) make of them, is valid against its built-in schema; broken
 * documents are refused with the fault named and the class of a constraint violation; a
 * directory of the user's own schemas replaces the built-in ones kind by kind, and a schema
 * that does not parse is reported with its file and line. Fixed seeds throughout.
 */
#include "workload/docs/docs.h"
#include "workload/docs/schema.h"
#include "workload/docs/xml_api.h"

#include "dgtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NCUST 1000
#define NSEC 500

static const uint64_t seeds[] = {1, 42, UINT64_C(0xdeadbeefcafe)};

static docs_schemas *set;

static void check_valid(docs_validator *v, int kind, const dg_strbuf *doc, const char *what)
{
    dg_err e = DG_ERR_INIT;
    int rc = docs_validate_text(v, kind, doc->buf, doc->len, &e);
    if (rc)
        fprintf(stderr, "  %s: %s\n", what, e.msg);
    DG_CHECK_INT(rc, 0);
}

/* Every generated document, and what each edit makes of it, is valid. */
static void test_generated_and_edited(void)
{
    docs_validator *v = docs_validator_new(set);
    dg_strbuf doc = DG_STRBUF_INIT, out = DG_STRBUF_INIT, out2 = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    int docs = 0;
    for (size_t si = 0; si < sizeof seeds / sizeof seeds[0]; si++) {
        for (int64_t i = 0; i < 60; i++) {
            docs_cust_keys k;
            DG_CHECK_INT(docs_gen_custacc(seeds[si], DOCS_FIRST_CUST + i, NSEC, &doc, &k, &e), 0);
            check_valid(v, DOCS_CUSTACC, &doc, "custacc");
            DG_CHECK_INT(docs_gen_order(seeds[si], DOCS_FIRST_ORDER + i, NCUST, NSEC, &doc, NULL,
                                        &e), 0);
            check_valid(v, DOCS_ORDER, &doc, "order");
            DG_CHECK_INT(docs_update_order(doc.buf, doc.len, 17, 123456, &out, &e), 0);
            check_valid(v, DOCS_ORDER, &out, "U5's order");
            docs_sec_keys sk;
            DG_CHECK_INT(docs_gen_security(seeds[si], (int)i, &doc, &sk, &e), 0);
            check_valid(v, DOCS_SECURITY, &doc, "security");
            DG_CHECK_INT(docs_update_price(doc.buf, doc.len, 5000, 4900, 4800, 5100, &out, &e), 0);
            check_valid(v, DOCS_SECURITY, &out, "U6's security");
            docs += 5;

            /* the customer's edits: U1 (a new account, empty holdings), U3 into it, U4
               selling it all (an empty Holdings again), U2 of the new account */
            DG_CHECK_INT(docs_gen_custacc(seeds[si], DOCS_FIRST_CUST + i, NSEC, &doc, &k, &e), 0);
            int64_t acct = k.acct[k.nacct - 1] + 1;
            DG_CHECK_INT(docs_add_account(doc.buf, doc.len, acct, -250, &out, &e), 0);
            check_valid(v, DOCS_CUSTACC, &out, "U1's custacc");
            DG_CHECK_INT(docs_buy_position(out.buf, out.len, acct, &sk, 10, 1000, &out2, &e), 0);
            check_valid(v, DOCS_CUSTACC, &out2, "U3's custacc");
            bool removed = false;
            DG_CHECK_INT(docs_sell_position(out2.buf, out2.len, acct, 10, 990, &removed, v, &out,
                                            &e), 0);
            DG_CHECK(removed);
            DG_CHECK_INT(docs_close_account(out.buf, out.len, acct, v, &out2, &e), 0);
            docs += 4;
        }
    }
    uint64_t n;
    int64_t ns;
    docs_validator_take(v, &n, &ns);
    DG_CHECK_INT((int)n, docs); /* U4's and U2's validations counted like the others */
    DG_CHECK(ns > 0);
    docs_validator_take(v, &n, &ns);
    DG_CHECK(n == 0 && ns == 0);
    dg_sb_free(&doc);
    dg_sb_free(&out);
    dg_sb_free(&out2);
    docs_validator_free(v);
}

/* Replaces the first occurrence of from in a copy of doc by to. */
static char *edit(const dg_strbuf *doc, const char *from, const char *to)
{
    const char *at = strstr(doc->buf, from);
    DG_CHECK(at != NULL);
    if (!at)
        return strdup(doc->buf);
    size_t head = (size_t)(at - doc->buf), fl = strlen(from), tl = strlen(to);
    char *s = malloc(doc->len - fl + tl + 1);
    memcpy(s, doc->buf, head);
    memcpy(s + head, to, tl);
    strcpy(s + head + tl, at + fl);
    return s;
}

static void expect_broken(docs_validator *v, int kind, const char *xml, const char *mentions)
{
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(docs_validate_text(v, kind, xml, strlen(xml), &e), DG_E_PARSE);
    DG_CHECK_INT(e.cls, DG_EC_CONSTRAINT); /* counted as the transaction's error; run goes on */
    if (!strstr(e.msg, mentions) || !strstr(e.msg, "breaks its schema"))
        fprintf(stderr, "  message: %s (wanted '%s')\n", e.msg, mentions);
    DG_CHECK(strstr(e.msg, mentions) != NULL);
    DG_CHECK(strstr(e.msg, "breaks its schema") != NULL);
}

static void test_broken(void)
{
    docs_validator *v = docs_validator_new(set);
    dg_strbuf doc = DG_STRBUF_INIT, out = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(docs_gen_custacc(7, 2000, NSEC, &doc, NULL, &e), 0);
    char *s = edit(&doc, "<Gender>", "<Gender>X");
    expect_broken(v, DOCS_CUSTACC, s, "Gender");
    free(s);
    s = edit(&doc, "<DateOfBirth>", "<Birthday>1970-01-01</Birthday><DateOfBirth>");
    expect_broken(v, DOCS_CUSTACC, s, "Birthday");
    free(s);
    s = edit(&doc, "<Passbook>", "<Passbook>Maybe");
    expect_broken(v, DOCS_CUSTACC, s, "Passbook");
    /* U2 on a customer whose stored document is broken elsewhere: the edit is refused
       before anything is written */
    docs_cust_keys k;
    DG_CHECK_INT(docs_read_custacc(doc.buf, doc.len, &k, &e), 0);
    if (k.nacct >= 2) {
        dg_sb_reset(&out);
        DG_CHECK_INT(docs_close_account(s, strlen(s), k.acct[1], v, &out, &e), DG_E_PARSE);
        DG_CHECK_INT(e.cls, DG_EC_CONSTRAINT);
        DG_CHECK_INT((int)out.len, 0);
        DG_CHECK_INT(docs_close_account(s, strlen(s), k.acct[1], NULL, &out, &e), 0); /* off */
    }
    free(s);
    DG_CHECK_INT(docs_gen_order(7, DOCS_FIRST_ORDER, NCUST, NSEC, &doc, NULL, &e), 0);
    s = edit(&doc, " Acct=\"", " Acc=\"");
    expect_broken(v, DOCS_ORDER, s, "Acc");
    free(s);
    s = edit(&doc, " Side=\"", " Side=\"3");
    expect_broken(v, DOCS_ORDER, s, "Side");
    free(s);
    expect_broken(v, DOCS_ORDER, "<FIXML><Order", "well-formed");
    /* another kind's document */
    DG_CHECK_INT(docs_gen_security(7, 3, &out, NULL, &e), 0);
    expect_broken(v, DOCS_ORDER, out.buf, "Security");
    dg_sb_free(&doc);
    dg_sb_free(&out);
    docs_validator_free(v);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    DG_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A directory of the user's schemas: order.xsd replaces the built-in one (here one that
 * requires an attribute the generator does not write), custacc stays built-in; a schema
 * that does not parse names its file and line; a path that is not a directory. */
static void test_user_schemas(void)
{
    char dir[] = "/tmp/dg_xsd_XXXXXX";
    DG_CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/order.xsd", dir);
    const char *at = strstr(docs_xsd[DOCS_ORDER], "<xs:attribute name='ID' type='xs:long'");
    DG_CHECK(at != NULL);
    size_t head = (size_t)(at - docs_xsd[DOCS_ORDER]);
    char *x = malloc(strlen(docs_xsd[DOCS_ORDER]) + 100);
    memcpy(x, docs_xsd[DOCS_ORDER], head);
    strcpy(x + head, "<xs:attribute name='Foo' type='xs:string' use='required'/>");
    strcat(x, at);
    write_file(path, x);
    free(x);
    docs_schemas *mine = NULL;
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(docs_schemas_open(dir, &mine, &e), 0);
    DG_CHECK_STR(docs_schemas_source(mine, DOCS_ORDER), path);
    DG_CHECK_STR(docs_schemas_source(mine, DOCS_CUSTACC), "built-in");
    docs_validator *v = docs_validator_new(mine);
    dg_strbuf doc = DG_STRBUF_INIT;
    DG_CHECK_INT(docs_gen_order(3, DOCS_FIRST_ORDER + 5, NCUST, NSEC, &doc, NULL, &e), 0);
    expect_broken(v, DOCS_ORDER, doc.buf, "Foo");
    DG_CHECK_INT(docs_validate_text(v, DOCS_ORDER, doc.buf, doc.len, &e), DG_E_PARSE);
    DG_CHECK(strstr(e.msg, path) != NULL); /* which schema it broke */
    DG_CHECK_INT(docs_gen_custacc(3, 2000, NSEC, &doc, NULL, &e), 0);
    check_valid(v, DOCS_CUSTACC, &doc, "custacc, built-in schema");
    docs_validator_free(v);
    docs_schemas_free(mine);

    /* a schema that does not parse: its file and line */
    write_file(path, "<?xml version='1.0'?>\n<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema'>\n"
                     "<xs:element name='A' type='NoSuchType'/>\n</xs:schema>\n");
    mine = NULL;
    DG_CHECK_INT(docs_schemas_open(dir, &mine, &e), DG_E_PARSE);
    DG_CHECK(mine == NULL);
    char want[300];
    snprintf(want, sizeof want, "%s:3:", path);
    if (!strstr(e.msg, want))
        fprintf(stderr, "  message: %s\n", e.msg);
    DG_CHECK(strstr(e.msg, want) != NULL);
    unlink(path);
    /* not a directory */
    DG_CHECK_INT(docs_schemas_open("/nonexistent/xsd", &mine, &e), DG_E_INVAL);
    DG_CHECK(strstr(e.msg, "/nonexistent/xsd") != NULL);
    DG_CHECK_INT(docs_schemas_open("/etc/hostname", &mine, &e), DG_E_INVAL);
    rmdir(dir);
    dg_sb_free(&doc);
}

int main(void)
{
    if (docs_xml_load(NULL) != 0)
        return 77; /* no libxml2 in this build's environment */
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(docs_schemas_open(NULL, &set, &e), 0);
    if (!set) {
        fprintf(stderr, "built-in schemas: %s\n", e.msg);
        return 1;
    }
    for (int k = 0; k < DOCS_NKINDS; k++)
        DG_CHECK_STR(docs_schemas_source(set, k), "built-in");
    DG_RUN(test_generated_and_edited);
    DG_RUN(test_broken);
    DG_RUN(test_user_schemas);
    docs_schemas_free(set);
    DG_TEST_END();
}
