-- a point read of one account, its branch looked up through \gset
\set aid random(1, 100000 * :scale)
SELECT bid, abalance FROM pgbench_accounts WHERE aid = :aid \gset acc_
SELECT bbalance FROM pgbench_branches WHERE bid = :acc_bid;
