-- updates concentrated on few accounts (zipfian, s = 1.5), permuted so the hot accounts
-- are spread over the table rather than being 1, 2, 3 ...
\set r random_zipfian(1, 100000 * :scale, 1.5)
\set aid 1 + permute(:r - 1, 100000 * :scale)
\set delta random(-100, 100)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
\if :delta > 95
  \sleep 1 ms
\endif
END;
