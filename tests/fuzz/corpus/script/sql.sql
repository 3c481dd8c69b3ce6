BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;
SELECT 'it''s', E'a\'b', "q""x", $tag$ :no $tag$, x::int, :a /* :c /* nested */ */ -- :d
  FROM t WHERE a = :i \gset pre_
SELECT 1 \aset
UPDATE t SET a = \:x;
COMMIT;
\sleep :i ms
