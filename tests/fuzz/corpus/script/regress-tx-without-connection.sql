-- TPC-B (sort of): pganches SET bbalance = bbalance + :deltaad, delta, mtime) VALUES (:tid, :d, :aid, :delta, CURRENT_TIMESTAMP);
END;
