/*
 * schema.h - XML Schema validation of the docs workload's documents on the client, as
 * TPoX's I2, U2 and U4 validate theirs (DB2 validated in the server; PostgreSQL and MariaDB
 * cannot, so dbgauge does it with libxml2 in the terminal, before the document is sent).
 *
 * The built-in schemas were written for this project from the documents gen.c makes
 * (custacc, FIXML order, security: docs_xsd[]); a directory of the user's own
 * (`--wl-opt schemas=DIR`: custacc.xsd, order.xsd, security.xsd, each optional, with
 * whatever they include) replaces them kind by kind, e.g. TPoX's originals.
 *
 * A schema set is parsed once and shared read-only by the terminals; each terminal
 * validates through contexts of its own (libxml2's validation contexts are not
 * thread-safe). Internal to src/workload/docs/ and its tests.
 */
#ifndef DG_WORKLOAD_DOCS_SCHEMA_H
#define DG_WORKLOAD_DOCS_SCHEMA_H

#include "core/err.h"
#include "workload/docs/docs.h"
#include "workload/docs/xml_api.h"

#include <stddef.h>
#include <stdint.h>

typedef struct docs_schemas docs_schemas;
typedef struct docs_validator docs_validator;

/* The built-in schemas' text, by kind (DOCS_CUSTACC, DOCS_ORDER, DOCS_SECURITY). */
extern const char *const docs_xsd[DOCS_NKINDS];

/* Parses the schemas: the built-in ones, each replaced by DIR/KIND.xsd where dir is not
 * NULL and that file exists. DG_E_PARSE with the file, line and libxml2's message for a
 * schema that does not parse; DG_E_INVAL when dir is not a directory. */
int docs_schemas_open(const char *dir, docs_schemas **out, dg_err *err);
void docs_schemas_free(docs_schemas *s);

/* Where kind's schema came from: "built-in" or its path. */
const char *docs_schemas_source(const docs_schemas *s, int kind);

/* A terminal's validator (NULL: out of memory). */
docs_validator *docs_validator_new(const docs_schemas *s);
void docs_validator_free(docs_validator *v);

/* Validates a parsed document of the kind: 0, or DG_E_PARSE of class DG_EC_CONSTRAINT (a
 * document that breaks its schema, like a row that breaks a check: counted as an error of
 * the transaction, the run goes on) naming the first fault and its line. */
int docs_validate_doc(docs_validator *v, int kind, xmlDoc *doc, dg_err *err);

/* The same for a document's text: parsed first (a document that is not well-formed fails
 * the same way). */
int docs_validate_text(docs_validator *v, int kind, const char *xml, size_t len, dg_err *err);

/* The documents validated since the last call and the time it took (ns, a text's parse
 * included), then zero: the terminal counts them for the measured phase or not. */
void docs_validator_take(docs_validator *v, uint64_t *n, int64_t *ns);

#endif
