\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\set x 1
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
\elif 0
\else
\endif
