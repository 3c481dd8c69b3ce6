/* A script exercising most of the language: multi-line SQL, comments of both kinds,
   quoted text containing ';' and ':words', casts, \gset and \aset, nested \if chains. */
\set kind random(1, 4)
\set n :kind * 10 \
       + 1
SELECT count(*) AS total,     -- the number of rows
       max(v) AS top
  FROM kv
 WHERE note <> 'a;b :notavar'
   AND k < :n \gset stat_
\if :kind = 1
  \set label 1
\elif :kind = 2
  \if :stat_total > 0
    \set label 2
  \else
    \set label 20
  \endif
\elif :kind = 3
  \set label 3
\else
  \set label 4
\endif
SELECT k AS last_k, v AS last_v FROM kv WHERE k <= :n ORDER BY k \aset
UPDATE kv SET v = v + 1, note = $$it's; fine$$ WHERE k = :label;
\sleep 0 ms
