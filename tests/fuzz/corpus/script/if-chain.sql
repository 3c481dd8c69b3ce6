\set x 1
\if :x = 1
\set y 2
\elif :x IS NOT TRUE
\set y 3
\else
\set y 4
\endif
\set z :y * 2.5e3 / .5 <> 1
