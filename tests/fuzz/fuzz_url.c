/*
 * fuzz_url.c - libFuzzer harness of the connection URL parser and the redaction of
 * passwords (src/backend/backend.c: dg_url_parse, dg_url_redact, dg_url_redact_text).
 *
 * The input, cut at its first NUL byte, is one URL and one free text. What must hold: no
 * crash, no sanitizer report, no leak; a parsed URL's redacted form is what
 * dg_url_redact() gives for the same text (backend.h promises it); a refused URL leaves
 * *out untouched and says why.
 */
#include "backend/backend.h"
#include "core/err.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';

    dg_url u;
    memset(&u, 0, sizeof u);
    dg_err err = DG_ERR_INIT;
    char *r = dg_url_redact(text);
    if (!r)
        abort();
    if (dg_url_parse(text, &u, &err) == 0) {
        if (!u.scheme || !u.redacted || strcmp(u.redacted, r) != 0) {
            fprintf(stderr, "dg_url.redacted '%s' differs from dg_url_redact() '%s'\n",
                    u.redacted ? u.redacted : "(null)", r);
            abort();
        }
        if (u.nparams < 0 || (u.nparams > 0 && !u.params))
            abort();
        dg_url_free(&u);
        dg_url_free(&u); /* a second call is harmless */
    } else {
        if (u.scheme || u.redacted || err.msg[0] == '\0')
            abort();
    }
    free(r);
    char *t = dg_url_redact_text(text);
    if (!t)
        abort();
    free(t);
    free(text);
    return 0;
}
