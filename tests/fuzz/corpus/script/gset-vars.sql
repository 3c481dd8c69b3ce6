SELECT 1 AS a \gset p_
\set y :p_a + :q
\set q 1
