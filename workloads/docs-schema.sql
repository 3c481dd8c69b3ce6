-- schema of the insert-only experiment (experiments/insert-only): documents with a key
-- and a text body, as an XML store's base table. Run once with -t 1.
CREATE TABLE IF NOT EXISTS docs (doc_id BIGINT NOT NULL PRIMARY KEY, cust_id INT, body TEXT);
