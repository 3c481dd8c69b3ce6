\set x 1 + \
  2 \
 * 3
\set y (((1)))
