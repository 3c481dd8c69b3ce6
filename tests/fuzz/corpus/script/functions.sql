\set a random(1, 100000 * :scale)
\set b random_gaussian(1, 10, 2.5) + random_exponential(1, 10, 3.0)
\set z random_zipfian(1, 100, 1.5)
\set h hash(:a) # hash_fnv1a(:a, 5) # hash_murmur2(:a, :default_seed)
\set p permute(:a, 1000, 7) % 10
\set f pow(2, 0.5) * sqrt(ln(exp(1))) + pi() - abs(-3.5) + double(int(2.7))
\set g greatest(1, 2.5, :a) - least(3, :i, -1)
\set s :foo
\set t (:t AND NOT :n IS NULL) OR :d > 1 AND :sp >= 42
\set c CASE WHEN :a < 10 THEN 1 WHEN :a ISNULL THEN 2 ELSE 3 END
\set x debug(1 << 3 | 5 & ~2 >> 1 + -9223372036854775808 / -1)
