/*
 * procs.c - the five TPC-C transactions as stored procedures (--wl-opt procedures=1): one
 * round trip per transaction instead of 10-60, as HammerDB's TPROC-C runs them. A labelled
 * mode: the result file says run.execution = "procedures", since an application that
 * sends its statements one by one (the default) pays a round trip for each.
 *
 * Each procedure runs the statements of txn.c's profile in the same order, with the same
 * locking reads, inside a transaction of its own that it commits (or, for New-Order's
 * unused item, rolls back: the expected 1%), and hands back what the client needs to count
 * the outcome: New-Order (status, o_id), Payment (c_id, c_credit), Order-Status (c_id,
 * o_id, lines), Delivery (skipped districts, races), Stock-Level (low stock). The client
 * still draws every input (txn.c's generators) and sorts New-Order's lines by (supply
 * warehouse, item), so that concurrent New-Orders lock stock in one order. A row the
 * profile needs that is missing is an error raised in the procedure, as in txn.c.
 *
 * Dialects (dg_dialect.proc_style): PL/pgSQL procedures whose COMMIT/ROLLBACK end the
 * CALL's transaction, results in INOUT parameters (PostgreSQL 11+; New-Order's lines as
 * int[] literals); SQL/PSM procedures with START TRANSACTION inside and an exit handler
 * that rolls back and re-raises, results in a final SELECT (MariaDB, MySQL; the lines as
 * comma-separated lists); PSQL selectable procedures in a transaction the client begins
 * and ends with txn.c's options, since Firebird's cannot end one (Firebird 3; the lists
 * comma-separated, the unused item an exception caught inside, its work undone). On
 * Db2's SQL PL (written from its manual, not verified on a server) are the SQL/PSM ones in
 * Db2's words: no START TRANSACTION, the result a result set opened after the COMMIT. On
 * PostgreSQL Stock-Level and Order-Status read at the session's isolation (its default,
 * READ COMMITTED, is what txn.c asks for Stock-Level); MariaDB's set READ COMMITTED /
 * READ ONLY as txn.c does.
 *
 * A run that asks for them creates the procedures before its terminals connect and drops
 * them after (workload ops run_begin and run_end: on Firebird a procedure would keep other
 * workloads from dropping the tables it uses); a load with --drop drops any left behind
 * by a run that was killed. Two runs with procedures=1 on one database at once would
 * drop each other's.
 */
#include "workload/tpcc/tpcc.h"

#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const proc_names[] = {"dg_tpcc_new_order", "dg_tpcc_payment",
                                         "dg_tpcc_order_status", "dg_tpcc_delivery",
                                         "dg_tpcc_stock_level"};
#define NPROCS (int)(sizeof proc_names / sizeof proc_names[0])

/* ---- PL/pgSQL ------------------------------------------------------------------------------ */

static const char *const pg_ddl[] = {
    /* New-Order */
    "CREATE PROCEDURE dg_tpcc_new_order(p_w int, p_d int, p_c int, p_ol_cnt int, "
    "p_all_local int, p_items int[], p_supply int[], p_qty int[], p_num int[], "
    "INOUT p_status int, INOUT p_o_id int) LANGUAGE plpgsql AS $$\n"
    "DECLARE v_w_tax numeric; v_d_tax numeric; v_disc numeric; v_last varchar(16);\n"
    "  v_credit char(2); v_price numeric; v_iname varchar(24); v_idata varchar(50);\n"
    "  v_sq int; v_sdata varchar(50); v_dist char(24); k int;\n"
    "BEGIN\n"
    "  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w;\n"
    "  IF NOT FOUND THEN RAISE EXCEPTION 'tpcc: warehouse % not found', p_w; END IF;\n"
    "  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d\n"
    "    RETURNING d_tax, d_next_o_id - 1 INTO v_d_tax, p_o_id;\n"
    "  IF NOT FOUND THEN RAISE EXCEPTION 'tpcc: district (%, %) not found', p_w, p_d; END IF;\n"
    "  SELECT c_discount, c_last, c_credit INTO v_disc, v_last, v_credit FROM customer\n"
    "    WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;\n"
    "  IF NOT FOUND THEN\n"
    "    RAISE EXCEPTION 'tpcc: customer (%, %, %) not found', p_w, p_d, p_c;\n"
    "  END IF;\n"
    "  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,\n"
    "    o_all_local) VALUES (p_o_id, p_d, p_w, p_c, now(), NULL, p_ol_cnt, p_all_local);\n"
    "  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (p_o_id, p_d, p_w);\n"
    "  FOR k IN 1 .. p_ol_cnt LOOP\n"
    "    SELECT i_price, i_name, i_data INTO v_price, v_iname, v_idata FROM item\n"
    "      WHERE i_id = p_items[k];\n"
    "    IF NOT FOUND THEN\n"
    "      ROLLBACK;\n"
    "      p_status := 1;\n"
    "      RETURN;\n"
    "    END IF;\n"
    "    SELECT s_quantity, s_data, CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02\n"
    "      WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05\n"
    "      WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08\n"
    "      WHEN 9 THEN s_dist_09 ELSE s_dist_10 END INTO v_sq, v_sdata, v_dist\n"
    "      FROM stock WHERE s_i_id = p_items[k] AND s_w_id = p_supply[k] FOR UPDATE;\n"
    "    IF NOT FOUND THEN\n"
    "      RAISE EXCEPTION 'tpcc: stock (item, warehouse) (%, %) not found', p_items[k],\n"
    "        p_supply[k];\n"
    "    END IF;\n"
    "    UPDATE stock SET s_quantity = CASE WHEN v_sq >= p_qty[k] + 10 THEN v_sq - p_qty[k]\n"
    "        ELSE v_sq - p_qty[k] + 91 END, s_ytd = s_ytd + p_qty[k],\n"
    "      s_order_cnt = s_order_cnt + 1,\n"
    "      s_remote_cnt = s_remote_cnt + CASE WHEN p_supply[k] <> p_w THEN 1 ELSE 0 END\n"
    "      WHERE s_i_id = p_items[k] AND s_w_id = p_supply[k];\n"
    "    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,\n"
    "      ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)\n"
    "      VALUES (p_o_id, p_d, p_w, p_num[k], p_items[k], p_supply[k], NULL, p_qty[k],\n"
    "        p_qty[k] * v_price, v_dist);\n"
    "  END LOOP;\n"
    "  COMMIT;\n"
    "  p_status := 0;\n"
    "END $$",

    /* Payment */
    "CREATE PROCEDURE dg_tpcc_payment(p_w int, p_d int, p_c_w int, p_c_d int, p_by_name int,\n"
    "  p_c int, p_last varchar, p_amount numeric, INOUT p_c_id int, INOUT p_credit text)\n"
    "LANGUAGE plpgsql AS $$\n"
    "DECLARE r_w record; r_d record; r_c record; v_n int; v_data varchar(500);\n"
    "BEGIN\n"
    "  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;\n"
    "  SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip INTO r_w FROM warehouse\n"
    "    WHERE w_id = p_w;\n"
    "  IF NOT FOUND THEN RAISE EXCEPTION 'tpcc: warehouse % not found', p_w; END IF;\n"
    "  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip INTO r_d FROM district\n"
    "    WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  IF NOT FOUND THEN RAISE EXCEPTION 'tpcc: district (%, %) not found', p_w, p_d; END IF;\n"
    "  p_c_id := p_c;\n"
    "  IF p_by_name = 1 THEN\n"
    "    SELECT count(*) INTO v_n FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last;\n"
    "    IF v_n = 0 THEN\n"
    "      RAISE EXCEPTION 'tpcc: no customer named % in warehouse %, district %', p_last,\n"
    "        p_c_w, p_c_d;\n"
    "    END IF;\n"
    "    SELECT c_id INTO p_c_id FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last\n"
    "      ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;\n"
    "  END IF;\n"
    "  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,\n"
    "    c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance INTO r_c\n"
    "    FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = p_c_id FOR UPDATE;\n"
    "  IF NOT FOUND THEN\n"
    "    RAISE EXCEPTION 'tpcc: customer (%, %, %) not found', p_c_w, p_c_d, p_c_id;\n"
    "  END IF;\n"
    "  p_credit := r_c.c_credit;\n"
    "  IF r_c.c_credit = 'BC' THEN\n"
    "    SELECT c_data INTO v_data FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = p_c_id;\n"
    "    v_data := substr(p_c_id || ' ' || p_c_d || ' ' || p_c_w || ' ' || p_d || ' ' || p_w\n"
    "      || ' ' || p_amount::text || ' ' || coalesce(v_data, ''), 1, 500);\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount,\n"
    "      c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1,\n"
    "      c_data = v_data WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = p_c_id;\n"
    "  ELSE\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount,\n"
    "      c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = p_c_id;\n"
    "  END IF;\n"
    "  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount,\n"
    "    h_data) VALUES (p_c_id, p_c_d, p_c_w, p_d, p_w, now(), p_amount,\n"
    "    substr(coalesce(r_w.w_name, ''), 1, 10) || '    ' || substr(coalesce(r_d.d_name, ''),\n"
    "      1, 10));\n"
    "  COMMIT;\n"
    "END $$",

    /* Order-Status */
    "CREATE PROCEDURE dg_tpcc_order_status(p_w int, p_d int, p_by_name int, p_c int,\n"
    "  p_last varchar, INOUT p_c_id int, INOUT p_o_id int, INOUT p_lines int)\n"
    "LANGUAGE plpgsql AS $$\n"
    "DECLARE r_c record; r_o record; r_l record; v_n int;\n"
    "BEGIN\n"
    "  p_c_id := p_c; p_o_id := 0; p_lines := 0;\n"
    "  IF p_by_name = 1 THEN\n"
    "    SELECT count(*) INTO v_n FROM customer\n"
    "      WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;\n"
    "    IF v_n = 0 THEN\n"
    "      RAISE EXCEPTION 'tpcc: no customer named % in warehouse %, district %', p_last, p_w,\n"
    "        p_d;\n"
    "    END IF;\n"
    "    SELECT c_id INTO p_c_id FROM customer\n"
    "      WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last\n"
    "      ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;\n"
    "  END IF;\n"
    "  SELECT c_balance, c_first, c_middle, c_last INTO r_c FROM customer\n"
    "    WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c_id;\n"
    "  IF NOT FOUND THEN\n"
    "    RAISE EXCEPTION 'tpcc: customer (%, %, %) not found', p_w, p_d, p_c_id;\n"
    "  END IF;\n"
    "  SELECT o_id, o_entry_d, o_carrier_id INTO r_o FROM orders\n"
    "    WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = p_c_id ORDER BY o_id DESC LIMIT 1;\n"
    "  IF FOUND THEN\n"
    "    p_o_id := r_o.o_id;\n"
    "    FOR r_l IN SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d\n"
    "        FROM order_line WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = p_o_id LOOP\n"
    "      p_lines := p_lines + 1;\n"
    "    END LOOP;\n"
    "  END IF;\n"
    "  COMMIT;\n"
    "END $$",

    /* Delivery */
    "CREATE PROCEDURE dg_tpcc_delivery(p_w int, p_carrier int, INOUT p_skipped int,\n"
    "  INOUT p_races int) LANGUAGE plpgsql AS $$\n"
    "DECLARE d int; v_o int; v_c int; v_sum numeric; v_min int; v_tries int;\n"
    "BEGIN\n"
    "  p_skipped := 0; p_races := 0;\n"
    "  FOR d IN 1 .. 10 LOOP\n"
    "    v_tries := 0;\n"
    "    LOOP\n"
    "      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = d AND no_o_id =\n"
    "        (SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = p_w AND no_d_id = d)\n"
    "        RETURNING no_o_id INTO v_o;\n"
    "      EXIT WHEN FOUND;\n"
    "      SELECT MIN(no_o_id) INTO v_min FROM new_order WHERE no_w_id = p_w AND no_d_id = d;\n"
    "      IF v_min IS NULL THEN v_o := NULL; EXIT; END IF;\n"
    "      p_races := p_races + 1; v_tries := v_tries + 1;\n"
    "      IF v_tries >= 1000 THEN\n"
    "        RAISE EXCEPTION 'tpcc: delivery lost 1000 races for the oldest new order of '\n"
    "          'warehouse %, district %', p_w, d USING ERRCODE = '40001';\n"
    "      END IF;\n"
    "    END LOOP;\n"
    "    IF v_o IS NULL THEN\n"
    "      p_skipped := p_skipped + 1;\n"
    "      CONTINUE;\n"
    "    END IF;\n"
    "    UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = d\n"
    "      AND o_id = v_o RETURNING o_c_id INTO v_c;\n"
    "    IF NOT FOUND THEN\n"
    "      RAISE EXCEPTION 'tpcc: order (%, %, %) not found', p_w, d, v_o;\n"
    "    END IF;\n"
    "    UPDATE order_line SET ol_delivery_d = now() WHERE ol_w_id = p_w AND ol_d_id = d\n"
    "      AND ol_o_id = v_o;\n"
    "    SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w AND ol_d_id = d\n"
    "      AND ol_o_id = v_o;\n"
    "    UPDATE customer SET c_balance = c_balance + coalesce(v_sum, 0),\n"
    "      c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = p_w AND c_d_id = d AND c_id = v_c;\n"
    "  END LOOP;\n"
    "  COMMIT;\n"
    "END $$",

    /* Stock-Level */
    "CREATE PROCEDURE dg_tpcc_stock_level(p_w int, p_d int, p_threshold int, INOUT p_low int)\n"
    "LANGUAGE plpgsql AS $$\n"
    "DECLARE v_next int;\n"
    "BEGIN\n"
    "  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  IF NOT FOUND THEN RAISE EXCEPTION 'tpcc: district (%, %) not found', p_w, p_d; END IF;\n"
    "  SELECT COUNT(DISTINCT s_i_id) INTO p_low FROM order_line, stock WHERE ol_w_id = p_w\n"
    "    AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20 AND s_w_id = p_w\n"
    "    AND s_i_id = ol_i_id AND s_quantity < p_threshold;\n"
    "  COMMIT;\n"
    "END $$",
};

static const char *const pg_calls[] = {
    "CALL dg_tpcc_new_order(?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)",
    "CALL dg_tpcc_payment(?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)",
    "CALL dg_tpcc_order_status(?, ?, ?, ?, ?, NULL, NULL, NULL)",
    "CALL dg_tpcc_delivery(?, ?, NULL, NULL)",
    "CALL dg_tpcc_stock_level(?, ?, ?, NULL)",
};

/* ---- SQL/PSM (MariaDB, MySQL) ---------------------------------------------------------------- */

/* The k-th (1-based) element of a comma-separated list, as an integer. */
#define PSM_NTH(list) "CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(" list ", ',', k), ',', -1) AS SIGNED)"

static const char *const psm_ddl[] = {
    /* New-Order */
    "CREATE PROCEDURE dg_tpcc_new_order(p_w INT, p_d INT, p_c INT, p_ol_cnt INT,\n"
    "  p_all_local INT, p_items VARCHAR(255), p_supply VARCHAR(255), p_qty VARCHAR(255),\n"
    "  p_num VARCHAR(255))\n"
    "proc: BEGIN\n"
    "  DECLARE v_w_tax, v_d_tax, v_disc DECIMAL(4,4);\n"
    "  DECLARE v_o_id, v_sq, v_item, v_sw, v_q, v_n, k INT;\n"
    "  DECLARE v_last VARCHAR(16);\n"
    "  DECLARE v_credit CHAR(2);\n"
    "  DECLARE v_price DECIMAL(5,2);\n"
    "  DECLARE v_iname VARCHAR(24);\n"
    "  DECLARE v_idata, v_sdata VARCHAR(50);\n"
    "  DECLARE v_dist CHAR(24);\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  START TRANSACTION;\n"
    "  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w;\n"
    "  IF v_w_tax IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: warehouse not found';\n"
    "  END IF;\n"
    "  SELECT d_tax, d_next_o_id INTO v_d_tax, v_o_id FROM district\n"
    "    WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;\n"
    "  IF v_o_id IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: district not found';\n"
    "  END IF;\n"
    "  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT c_discount, c_last, c_credit INTO v_disc, v_last, v_credit FROM customer\n"
    "    WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;\n"
    "  IF v_credit IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: customer not found';\n"
    "  END IF;\n"
    "  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,\n"
    "    o_all_local) VALUES (v_o_id, p_d, p_w, p_c, NOW(6), NULL, p_ol_cnt, p_all_local);\n"
    "  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d, p_w);\n"
    "  SET k = 1;\n"
    "  WHILE k <= p_ol_cnt DO\n"
    "    SET v_item = " PSM_NTH("p_items") ", v_sw = " PSM_NTH("p_supply") ",\n"
    "      v_q = " PSM_NTH("p_qty") ", v_n = " PSM_NTH("p_num") ";\n"
    "    SET v_price = NULL, v_sq = NULL;\n"
    "    SELECT i_price, i_name, i_data INTO v_price, v_iname, v_idata FROM item\n"
    "      WHERE i_id = v_item;\n"
    "    IF v_price IS NULL THEN\n"
    "      ROLLBACK;\n"
    "      SELECT 1 AS status, v_o_id AS o_id;\n"
    "      LEAVE proc;\n"
    "    END IF;\n"
    "    SELECT s_quantity, s_data, CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02\n"
    "      WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05\n"
    "      WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08\n"
    "      WHEN 9 THEN s_dist_09 ELSE s_dist_10 END INTO v_sq, v_sdata, v_dist\n"
    "      FROM stock WHERE s_i_id = v_item AND s_w_id = v_sw FOR UPDATE;\n"
    "    IF v_sq IS NULL THEN\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: stock (item, warehouse) not found';\n"
    "    END IF;\n"
    "    UPDATE stock SET s_quantity = CASE WHEN v_sq >= v_q + 10 THEN v_sq - v_q\n"
    "        ELSE v_sq - v_q + 91 END, s_ytd = s_ytd + v_q, s_order_cnt = s_order_cnt + 1,\n"
    "      s_remote_cnt = s_remote_cnt + CASE WHEN v_sw <> p_w THEN 1 ELSE 0 END\n"
    "      WHERE s_i_id = v_item AND s_w_id = v_sw;\n"
    "    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,\n"
    "      ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)\n"
    "      VALUES (v_o_id, p_d, p_w, v_n, v_item, v_sw, NULL, v_q, v_q * v_price, v_dist);\n"
    "    SET k = k + 1;\n"
    "  END WHILE;\n"
    "  COMMIT;\n"
    "  SELECT 0 AS status, v_o_id AS o_id;\n"
    "END",

    /* Payment */
    "CREATE PROCEDURE dg_tpcc_payment(p_w INT, p_d INT, p_c_w INT, p_c_d INT, p_by_name INT,\n"
    "  p_c INT, p_last VARCHAR(16), p_amount DECIMAL(6,2))\n"
    "BEGIN\n"
    "  DECLARE v_c_id, v_n, v_off INT;\n"
    "  DECLARE v_wname, v_dname VARCHAR(10);\n"
    "  DECLARE v_ws1, v_ws2, v_wcity, v_ds1, v_ds2, v_dcity VARCHAR(20);\n"
    "  DECLARE v_wst, v_dst CHAR(2);\n"
    "  DECLARE v_wzip, v_dzip CHAR(9);\n"
    "  DECLARE v_first, v_last VARCHAR(16);\n"
    "  DECLARE v_middle, v_cst, v_credit CHAR(2);\n"
    "  DECLARE v_cs1, v_cs2, v_ccity VARCHAR(20);\n"
    "  DECLARE v_czip CHAR(9);\n"
    "  DECLARE v_phone CHAR(16);\n"
    "  DECLARE v_since DATETIME(6);\n"
    "  DECLARE v_lim, v_bal DECIMAL(12,2);\n"
    "  DECLARE v_disc DECIMAL(4,4);\n"
    "  DECLARE v_data VARCHAR(500);\n"
    "  DECLARE v_found INT;\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  START TRANSACTION;\n"
    "  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;\n"
    "  SET v_found = NULL;\n"
    "  SELECT 1, w_name, w_street_1, w_street_2, w_city, w_state, w_zip\n"
    "    INTO v_found, v_wname, v_ws1, v_ws2, v_wcity, v_wst, v_wzip FROM warehouse\n"
    "    WHERE w_id = p_w;\n"
    "  IF v_found IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: warehouse not found';\n"
    "  END IF;\n"
    "  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SET v_found = NULL;\n"
    "  SELECT 1, d_name, d_street_1, d_street_2, d_city, d_state, d_zip\n"
    "    INTO v_found, v_dname, v_ds1, v_ds2, v_dcity, v_dst, v_dzip FROM district\n"
    "    WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  IF v_found IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: district not found';\n"
    "  END IF;\n"
    "  SET v_c_id = p_c;\n"
    "  IF p_by_name = 1 THEN\n"
    "    SELECT COUNT(*) INTO v_n FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last;\n"
    "    IF v_n = 0 THEN\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: no customer with that last name';\n"
    "    END IF;\n"
    "    SET v_off = (v_n + 1) DIV 2 - 1;\n"
    "    SELECT c_id INTO v_c_id FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last\n"
    "      ORDER BY c_first LIMIT v_off, 1;\n"
    "  END IF;\n"
    "  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,\n"
    "    c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance\n"
    "    INTO v_first, v_middle, v_last, v_cs1, v_cs2, v_ccity, v_cst, v_czip, v_phone,\n"
    "      v_since, v_credit, v_lim, v_disc, v_bal\n"
    "    FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id FOR UPDATE;\n"
    "  IF v_credit IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: customer not found';\n"
    "  END IF;\n"
    "  IF v_credit = 'BC' THEN\n"
    "    SELECT c_data INTO v_data FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "    SET v_data = SUBSTRING(CONCAT(v_c_id, ' ', p_c_d, ' ', p_c_w, ' ', p_d, ' ', p_w, ' ',\n"
    "      CAST(p_amount AS CHAR), ' ', COALESCE(v_data, '')), 1, 500);\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount,\n"
    "      c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1,\n"
    "      c_data = v_data WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "  ELSE\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount,\n"
    "      c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "  END IF;\n"
    "  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount,\n"
    "    h_data) VALUES (v_c_id, p_c_d, p_c_w, p_d, p_w, NOW(6), p_amount,\n"
    "    CONCAT(SUBSTRING(COALESCE(v_wname, ''), 1, 10), '    ',\n"
    "      SUBSTRING(COALESCE(v_dname, ''), 1, 10)));\n"
    "  COMMIT;\n"
    "  SELECT v_c_id AS c_id, v_credit AS c_credit;\n"
    "END",

    /* Order-Status */
    "CREATE PROCEDURE dg_tpcc_order_status(p_w INT, p_d INT, p_by_name INT, p_c INT,\n"
    "  p_last VARCHAR(16))\n"
    "BEGIN\n"
    "  DECLARE v_c_id, v_n, v_off, v_o_id, v_carrier, v_lines INT;\n"
    "  DECLARE v_bal DECIMAL(12,2);\n"
    "  DECLARE v_first, v_last VARCHAR(16);\n"
    "  DECLARE v_middle CHAR(2);\n"
    "  DECLARE v_entry DATETIME(6);\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  START TRANSACTION READ ONLY;\n"
    "  SET v_c_id = p_c, v_lines = 0;\n"
    "  IF p_by_name = 1 THEN\n"
    "    SELECT COUNT(*) INTO v_n FROM customer\n"
    "      WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;\n"
    "    IF v_n = 0 THEN\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: no customer with that last name';\n"
    "    END IF;\n"
    "    SET v_off = (v_n + 1) DIV 2 - 1;\n"
    "    SELECT c_id INTO v_c_id FROM customer\n"
    "      WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last\n"
    "      ORDER BY c_first LIMIT v_off, 1;\n"
    "  END IF;\n"
    "  SELECT c_balance, c_first, c_middle, c_last INTO v_bal, v_first, v_middle, v_last\n"
    "    FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c_id;\n"
    "  IF v_bal IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: customer not found';\n"
    "  END IF;\n"
    "  SELECT o_id, o_entry_d, o_carrier_id INTO v_o_id, v_entry, v_carrier FROM orders\n"
    "    WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c_id ORDER BY o_id DESC LIMIT 1;\n"
    "  IF v_o_id IS NOT NULL THEN\n"
    "    BEGIN\n"
    "      DECLARE done INT DEFAULT 0;\n"
    "      DECLARE v_i, v_sw, v_q INT;\n"
    "      DECLARE v_amount DECIMAL(6,2);\n"
    "      DECLARE v_deliv DATETIME(6);\n"
    "      DECLARE ol_cur CURSOR FOR SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount,\n"
    "        ol_delivery_d FROM order_line WHERE ol_w_id = p_w AND ol_d_id = p_d\n"
    "        AND ol_o_id = v_o_id;\n"
    "      DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;\n"
    "      OPEN ol_cur;\n"
    "      read_loop: LOOP\n"
    "        FETCH ol_cur INTO v_i, v_sw, v_q, v_amount, v_deliv;\n"
    "        IF done THEN LEAVE read_loop; END IF;\n"
    "        SET v_lines = v_lines + 1;\n"
    "      END LOOP;\n"
    "      CLOSE ol_cur;\n"
    "    END;\n"
    "  END IF;\n"
    "  COMMIT;\n"
    "  SELECT v_c_id AS c_id, COALESCE(v_o_id, 0) AS o_id, v_lines AS ol_count;\n"
    "END",

    /* Delivery */
    "CREATE PROCEDURE dg_tpcc_delivery(p_w INT, p_carrier INT)\n"
    "BEGIN\n"
    "  DECLARE d, v_o, v_c, v_tries, v_skipped, v_races INT;\n"
    "  DECLARE v_sum DECIMAL(12,2);\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  START TRANSACTION;\n"
    "  SET d = 1, v_skipped = 0, v_races = 0;\n"
    "  WHILE d <= 10 DO\n"
    "    SET v_tries = 0;\n"
    "    race: LOOP\n"
    "      SET v_o = NULL;\n"
    "      SELECT no_o_id INTO v_o FROM new_order WHERE no_w_id = p_w AND no_d_id = d\n"
    "        ORDER BY no_o_id LIMIT 1 FOR UPDATE;\n"
    "      IF v_o IS NULL THEN LEAVE race; END IF;\n"
    "      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = d AND no_o_id = v_o;\n"
    "      IF ROW_COUNT() = 1 THEN LEAVE race; END IF;\n"
    "      SET v_races = v_races + 1, v_tries = v_tries + 1;\n"
    "      IF v_tries >= 1000 THEN\n"
    "        SIGNAL SQLSTATE '40001' SET MESSAGE_TEXT =\n"
    "          'tpcc: delivery lost 1000 races for the oldest new order';\n"
    "      END IF;\n"
    "    END LOOP;\n"
    "    IF v_o IS NULL THEN\n"
    "      SET v_skipped = v_skipped + 1;\n"
    "    ELSE\n"
    "      SET v_c = NULL;\n"
    /* FOR UPDATE: a plain read would see the snapshot of the transaction's first plain read
       (an earlier district's), without an order committed since whose new_order row the
       locking read above took ("order not found" in a CI run) */
    "      SELECT o_c_id INTO v_c FROM orders WHERE o_w_id = p_w AND o_d_id = d AND o_id = v_o\n"
    "        FOR UPDATE;\n"
    "      IF v_c IS NULL THEN\n"
    "        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: order not found';\n"
    "      END IF;\n"
    "      UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = d\n"
    "        AND o_id = v_o;\n"
    "      UPDATE order_line SET ol_delivery_d = NOW(6) WHERE ol_w_id = p_w AND ol_d_id = d\n"
    "        AND ol_o_id = v_o;\n"
    "      SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w\n"
    "        AND ol_d_id = d AND ol_o_id = v_o;\n"
    "      UPDATE customer SET c_balance = c_balance + COALESCE(v_sum, 0),\n"
    "        c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = p_w AND c_d_id = d\n"
    "        AND c_id = v_c;\n"
    "    END IF;\n"
    "    SET d = d + 1;\n"
    "  END WHILE;\n"
    "  COMMIT;\n"
    "  SELECT v_skipped AS skipped, v_races AS races;\n"
    "END",

    /* Stock-Level */
    "CREATE PROCEDURE dg_tpcc_stock_level(p_w INT, p_d INT, p_threshold INT)\n"
    "BEGIN\n"
    "  DECLARE v_next, v_low INT;\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
    "  START TRANSACTION READ ONLY;\n"
    "  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  IF v_next IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: district not found';\n"
    "  END IF;\n"
    "  SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock WHERE ol_w_id = p_w\n"
    "    AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20 AND s_w_id = p_w\n"
    "    AND s_i_id = ol_i_id AND s_quantity < p_threshold;\n"
    "  COMMIT;\n"
    "  SELECT v_low AS low_stock;\n"
    "END",
};

static const char *const psm_calls[] = {
    "CALL dg_tpcc_new_order(?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "CALL dg_tpcc_payment(?, ?, ?, ?, ?, ?, ?, ?)",
    "CALL dg_tpcc_order_status(?, ?, ?, ?, ?)",
    "CALL dg_tpcc_delivery(?, ?)",
    "CALL dg_tpcc_stock_level(?, ?, ?)",
};

/* ---- SQL PL (Db2) ----------------------------------------------------------------------------- */

/* Db2's SQL PL, written from the Db2 11.5 SQL reference and not verified on a server (the
 * dialect is not; docs/backends.md): the SQL/PSM procedures above in Db2's words. A
 * transaction begins with the first statement (there is no START TRANSACTION) and the
 * procedure commits it; the result is a one-row result set (DYNAMIC RESULT SETS 1) opened
 * after the COMMIT, which would close it; a locking read is WITH RS USE AND KEEP UPDATE
 * LOCKS; the lists are cut with LOCATE; SUBSTRING with OCTETS, which, unlike SUBSTR, takes
 * a length past the string's end. */

/* Sets v (INTEGER) to the next element of the comma-separated list l at position p. */
#define SQLPL_NEXT(v, l, p)                                                                    \
    "    SET " v " = CAST(SUBSTR(" l ", " p ", LOCATE(',', " l " || ',', " p ") - " p           \
    ") AS INTEGER);\n"                                                                         \
    "    SET " p " = LOCATE(',', " l " || ',', " p ") + 1;\n"

static const char *const sqlpl_ddl[] = {
    /* New-Order */
    "CREATE PROCEDURE dg_tpcc_new_order(IN p_w INTEGER, IN p_d INTEGER, IN p_c INTEGER,\n"
    "  IN p_ol_cnt INTEGER, IN p_all_local INTEGER, IN p_items VARCHAR(255),\n"
    "  IN p_supply VARCHAR(255), IN p_qty VARCHAR(255), IN p_num VARCHAR(255))\n"
    "LANGUAGE SQL DYNAMIC RESULT SETS 1\n"
    "body: BEGIN\n"
    "  DECLARE v_w_tax, v_d_tax, v_disc DECIMAL(4,4);\n"
    "  DECLARE v_o_id, v_sq, v_item, v_sw, v_q, v_n, k INTEGER;\n"
    "  DECLARE v_status INTEGER DEFAULT 0;\n"
    "  DECLARE pos_i, pos_s, pos_q, pos_n INTEGER DEFAULT 1;\n"
    "  DECLARE v_last VARCHAR(16);\n"
    "  DECLARE v_credit CHAR(2);\n"
    "  DECLARE v_price DECIMAL(5,2);\n"
    "  DECLARE v_iname VARCHAR(24);\n"
    "  DECLARE v_idata, v_sdata VARCHAR(50);\n"
    "  DECLARE v_dist CHAR(24);\n"
    "  DECLARE res CURSOR WITH RETURN TO CLIENT FOR\n"
    "    SELECT v_status AS status, v_o_id AS o_id FROM SYSIBM.SYSDUMMY1;\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w;\n"
    "  IF v_w_tax IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: warehouse not found';\n"
    "  END IF;\n"
    "  SELECT d_tax, d_next_o_id INTO v_d_tax, v_o_id FROM district\n"
    "    WHERE d_w_id = p_w AND d_id = p_d WITH RS USE AND KEEP UPDATE LOCKS;\n"
    "  IF v_o_id IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: district not found';\n"
    "  END IF;\n"
    "  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT c_discount, c_last, c_credit INTO v_disc, v_last, v_credit FROM customer\n"
    "    WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;\n"
    "  IF v_credit IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: customer not found';\n"
    "  END IF;\n"
    "  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,\n"
    "    o_all_local) VALUES (v_o_id, p_d, p_w, p_c, CURRENT TIMESTAMP, NULL, p_ol_cnt,\n"
    "    p_all_local);\n"
    "  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d, p_w);\n"
    "  SET k = 1;\n"
    "  WHILE k <= p_ol_cnt DO\n"
    SQLPL_NEXT("v_item", "p_items", "pos_i")
    SQLPL_NEXT("v_sw", "p_supply", "pos_s")
    SQLPL_NEXT("v_q", "p_qty", "pos_q")
    SQLPL_NEXT("v_n", "p_num", "pos_n")
    "    SET v_price = NULL, v_sq = NULL;\n"
    "    SELECT i_price, i_name, i_data INTO v_price, v_iname, v_idata FROM item\n"
    "      WHERE i_id = v_item;\n"
    "    IF v_price IS NULL THEN\n"
    "      ROLLBACK;\n"
    "      SET v_status = 1;\n"
    "      OPEN res;\n"
    "      LEAVE body;\n"
    "    END IF;\n"
    "    SELECT s_quantity, s_data, CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02\n"
    "      WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05\n"
    "      WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08\n"
    "      WHEN 9 THEN s_dist_09 ELSE s_dist_10 END INTO v_sq, v_sdata, v_dist\n"
    "      FROM stock WHERE s_i_id = v_item AND s_w_id = v_sw\n"
    "      WITH RS USE AND KEEP UPDATE LOCKS;\n"
    "    IF v_sq IS NULL THEN\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: stock (item, warehouse) not found';\n"
    "    END IF;\n"
    "    UPDATE stock SET s_quantity = CASE WHEN v_sq >= v_q + 10 THEN v_sq - v_q\n"
    "        ELSE v_sq - v_q + 91 END, s_ytd = s_ytd + v_q, s_order_cnt = s_order_cnt + 1,\n"
    "      s_remote_cnt = s_remote_cnt + CASE WHEN v_sw <> p_w THEN 1 ELSE 0 END\n"
    "      WHERE s_i_id = v_item AND s_w_id = v_sw;\n"
    "    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,\n"
    "      ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)\n"
    "      VALUES (v_o_id, p_d, p_w, v_n, v_item, v_sw, NULL, v_q, v_q * v_price, v_dist);\n"
    "    SET k = k + 1;\n"
    "  END WHILE;\n"
    "  COMMIT;\n"
    "  OPEN res;\n"
    "END body",

    /* Payment */
    "CREATE PROCEDURE dg_tpcc_payment(IN p_w INTEGER, IN p_d INTEGER, IN p_c_w INTEGER,\n"
    "  IN p_c_d INTEGER, IN p_by_name INTEGER, IN p_c INTEGER, IN p_last VARCHAR(16),\n"
    "  IN p_amount DECIMAL(6,2))\n"
    "LANGUAGE SQL DYNAMIC RESULT SETS 1\n"
    "BEGIN\n"
    "  DECLARE v_c_id, v_n, v_off INTEGER;\n"
    "  DECLARE v_wname, v_dname VARCHAR(10);\n"
    "  DECLARE v_ws1, v_ws2, v_wcity, v_ds1, v_ds2, v_dcity VARCHAR(20);\n"
    "  DECLARE v_wst, v_dst CHAR(2);\n"
    "  DECLARE v_wzip, v_dzip CHAR(9);\n"
    "  DECLARE v_first, v_last VARCHAR(16);\n"
    "  DECLARE v_middle, v_cst, v_credit CHAR(2);\n"
    "  DECLARE v_cs1, v_cs2, v_ccity VARCHAR(20);\n"
    "  DECLARE v_czip CHAR(9);\n"
    "  DECLARE v_phone CHAR(16);\n"
    "  DECLARE v_since TIMESTAMP;\n"
    "  DECLARE v_lim, v_bal DECIMAL(12,2);\n"
    "  DECLARE v_disc DECIMAL(4,4);\n"
    "  DECLARE v_data VARCHAR(500);\n"
    "  DECLARE v_found INTEGER;\n"
    "  DECLARE res CURSOR WITH RETURN TO CLIENT FOR\n"
    "    SELECT v_c_id AS c_id, v_credit AS c_credit FROM SYSIBM.SYSDUMMY1;\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;\n"
    "  SET v_found = NULL;\n"
    "  SELECT 1, w_name, w_street_1, w_street_2, w_city, w_state, w_zip\n"
    "    INTO v_found, v_wname, v_ws1, v_ws2, v_wcity, v_wst, v_wzip FROM warehouse\n"
    "    WHERE w_id = p_w;\n"
    "  IF v_found IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: warehouse not found';\n"
    "  END IF;\n"
    "  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SET v_found = NULL;\n"
    "  SELECT 1, d_name, d_street_1, d_street_2, d_city, d_state, d_zip\n"
    "    INTO v_found, v_dname, v_ds1, v_ds2, v_dcity, v_dst, v_dzip FROM district\n"
    "    WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  IF v_found IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: district not found';\n"
    "  END IF;\n"
    "  SET v_c_id = p_c;\n"
    "  IF p_by_name = 1 THEN\n"
    "    SELECT COUNT(*) INTO v_n FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last;\n"
    "    IF v_n = 0 THEN\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: no customer with that last name';\n"
    "    END IF;\n"
    "    SET v_off = (v_n + 1) / 2 - 1;\n"
    "    SELECT c_id INTO v_c_id FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last\n"
    "      ORDER BY c_first OFFSET v_off ROWS FETCH FIRST 1 ROWS ONLY;\n"
    "  END IF;\n"
    "  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,\n"
    "    c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance\n"
    "    INTO v_first, v_middle, v_last, v_cs1, v_cs2, v_ccity, v_cst, v_czip, v_phone,\n"
    "      v_since, v_credit, v_lim, v_disc, v_bal\n"
    "    FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id\n"
    "    WITH RS USE AND KEEP UPDATE LOCKS;\n"
    "  IF v_credit IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: customer not found';\n"
    "  END IF;\n"
    "  IF v_credit = 'BC' THEN\n"
    "    SELECT c_data INTO v_data FROM customer\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "    SET v_data = SUBSTRING(CAST(v_c_id AS VARCHAR(11)) || ' ' ||\n"
    "      CAST(p_c_d AS VARCHAR(11)) || ' ' || CAST(p_c_w AS VARCHAR(11)) || ' ' ||\n"
    "      CAST(p_d AS VARCHAR(11)) || ' ' || CAST(p_w AS VARCHAR(11)) || ' ' ||\n"
    "      CAST(p_amount AS VARCHAR(16)) || ' ' || COALESCE(v_data, ''), 1, 500, OCTETS);\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount,\n"
    "      c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1,\n"
    "      c_data = v_data WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "  ELSE\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount,\n"
    "      c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "  END IF;\n"
    "  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount,\n"
    "    h_data) VALUES (v_c_id, p_c_d, p_c_w, p_d, p_w, CURRENT TIMESTAMP, p_amount,\n"
    "    SUBSTRING(COALESCE(v_wname, ''), 1, 10, OCTETS) || '    ' ||\n"
    "      SUBSTRING(COALESCE(v_dname, ''), 1, 10, OCTETS));\n"
    "  COMMIT;\n"
    "  OPEN res;\n"
    "END",

    /* Order-Status */
    "CREATE PROCEDURE dg_tpcc_order_status(IN p_w INTEGER, IN p_d INTEGER,\n"
    "  IN p_by_name INTEGER, IN p_c INTEGER, IN p_last VARCHAR(16))\n"
    "LANGUAGE SQL DYNAMIC RESULT SETS 1\n"
    "BEGIN\n"
    "  DECLARE v_c_id, v_n, v_off, v_o_id, v_carrier INTEGER;\n"
    "  DECLARE v_lines INTEGER DEFAULT 0;\n"
    "  DECLARE v_bal DECIMAL(12,2);\n"
    "  DECLARE v_first, v_last VARCHAR(16);\n"
    "  DECLARE v_middle CHAR(2);\n"
    "  DECLARE v_entry TIMESTAMP;\n"
    "  DECLARE res CURSOR WITH RETURN TO CLIENT FOR\n"
    "    SELECT v_c_id AS c_id, COALESCE(v_o_id, 0) AS o_id, v_lines AS ol_count\n"
    "    FROM SYSIBM.SYSDUMMY1;\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  SET v_c_id = p_c;\n"
    "  IF p_by_name = 1 THEN\n"
    "    SELECT COUNT(*) INTO v_n FROM customer\n"
    "      WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;\n"
    "    IF v_n = 0 THEN\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: no customer with that last name';\n"
    "    END IF;\n"
    "    SET v_off = (v_n + 1) / 2 - 1;\n"
    "    SELECT c_id INTO v_c_id FROM customer\n"
    "      WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last\n"
    "      ORDER BY c_first OFFSET v_off ROWS FETCH FIRST 1 ROWS ONLY;\n"
    "  END IF;\n"
    "  SELECT c_balance, c_first, c_middle, c_last INTO v_bal, v_first, v_middle, v_last\n"
    "    FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c_id;\n"
    "  IF v_bal IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: customer not found';\n"
    "  END IF;\n"
    "  SELECT o_id, o_entry_d, o_carrier_id INTO v_o_id, v_entry, v_carrier FROM orders\n"
    "    WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c_id ORDER BY o_id DESC\n"
    "    FETCH FIRST 1 ROWS ONLY;\n"
    "  IF v_o_id IS NOT NULL THEN\n"
    "    BEGIN\n"
    "      DECLARE done INTEGER DEFAULT 0;\n"
    "      DECLARE v_i, v_sw, v_q INTEGER;\n"
    "      DECLARE v_amount DECIMAL(6,2);\n"
    "      DECLARE v_deliv TIMESTAMP;\n"
    "      DECLARE ol_cur CURSOR FOR SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount,\n"
    "        ol_delivery_d FROM order_line WHERE ol_w_id = p_w AND ol_d_id = p_d\n"
    "        AND ol_o_id = v_o_id;\n"
    "      DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;\n"
    "      OPEN ol_cur;\n"
    "      read_loop: LOOP\n"
    "        FETCH ol_cur INTO v_i, v_sw, v_q, v_amount, v_deliv;\n"
    "        IF done = 1 THEN LEAVE read_loop; END IF;\n"
    "        SET v_lines = v_lines + 1;\n"
    "      END LOOP read_loop;\n"
    "      CLOSE ol_cur;\n"
    "    END;\n"
    "  END IF;\n"
    "  COMMIT;\n"
    "  OPEN res;\n"
    "END",

    /* Delivery */
    "CREATE PROCEDURE dg_tpcc_delivery(IN p_w INTEGER, IN p_carrier INTEGER)\n"
    "LANGUAGE SQL DYNAMIC RESULT SETS 1\n"
    "BEGIN\n"
    "  DECLARE d, v_o, v_c, v_tries, v_rows INTEGER;\n"
    "  DECLARE v_skipped, v_races INTEGER DEFAULT 0;\n"
    "  DECLARE v_sum DECIMAL(12,2);\n"
    "  DECLARE res CURSOR WITH RETURN TO CLIENT FOR\n"
    "    SELECT v_skipped AS skipped, v_races AS races FROM SYSIBM.SYSDUMMY1;\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  SET d = 1;\n"
    "  WHILE d <= 10 DO\n"
    "    SET v_tries = 0;\n"
    "    race: LOOP\n"
    "      SET v_o = NULL;\n"
    "      SELECT no_o_id INTO v_o FROM new_order WHERE no_w_id = p_w AND no_d_id = d\n"
    "        ORDER BY no_o_id FETCH FIRST 1 ROWS ONLY WITH RS USE AND KEEP UPDATE LOCKS;\n"
    "      IF v_o IS NULL THEN LEAVE race; END IF;\n"
    "      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = d AND no_o_id = v_o;\n"
    "      GET DIAGNOSTICS v_rows = ROW_COUNT;\n"
    "      IF v_rows = 1 THEN LEAVE race; END IF;\n"
    "      SET v_races = v_races + 1, v_tries = v_tries + 1;\n"
    "      IF v_tries >= 1000 THEN\n"
    "        SIGNAL SQLSTATE '40001' SET MESSAGE_TEXT =\n"
    "          'tpcc: delivery lost 1000 races for the oldest new order';\n"
    "      END IF;\n"
    "    END LOOP race;\n"
    "    IF v_o IS NULL THEN\n"
    "      SET v_skipped = v_skipped + 1;\n"
    "    ELSE\n"
    "      SET v_c = NULL;\n"
    "      SELECT o_c_id INTO v_c FROM orders WHERE o_w_id = p_w AND o_d_id = d AND o_id = v_o;\n"
    "      IF v_c IS NULL THEN\n"
    "        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: order not found';\n"
    "      END IF;\n"
    "      UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = d\n"
    "        AND o_id = v_o;\n"
    "      UPDATE order_line SET ol_delivery_d = CURRENT TIMESTAMP WHERE ol_w_id = p_w\n"
    "        AND ol_d_id = d AND ol_o_id = v_o;\n"
    "      SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w\n"
    "        AND ol_d_id = d AND ol_o_id = v_o;\n"
    "      UPDATE customer SET c_balance = c_balance + COALESCE(v_sum, 0),\n"
    "        c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = p_w AND c_d_id = d\n"
    "        AND c_id = v_c;\n"
    "    END IF;\n"
    "    SET d = d + 1;\n"
    "  END WHILE;\n"
    "  COMMIT;\n"
    "  OPEN res;\n"
    "END",

    /* Stock-Level: cursor stability (Db2's read committed), as txn.c asks */
    "CREATE PROCEDURE dg_tpcc_stock_level(IN p_w INTEGER, IN p_d INTEGER,\n"
    "  IN p_threshold INTEGER)\n"
    "LANGUAGE SQL DYNAMIC RESULT SETS 1\n"
    "BEGIN\n"
    "  DECLARE v_next, v_low INTEGER;\n"
    "  DECLARE res CURSOR WITH RETURN TO CLIENT FOR\n"
    "    SELECT v_low AS low_stock FROM SYSIBM.SYSDUMMY1;\n"
    "  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
    "  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d\n"
    "    WITH CS;\n"
    "  IF v_next IS NULL THEN\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: district not found';\n"
    "  END IF;\n"
    "  SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock WHERE ol_w_id = p_w\n"
    "    AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20 AND s_w_id = p_w\n"
    "    AND s_i_id = ol_i_id AND s_quantity < p_threshold WITH CS;\n"
    "  COMMIT;\n"
    "  OPEN res;\n"
    "END",
};

/* ---- PSQL (Firebird 3) ---------------------------------------------------------------------- */

/* Firebird's procedures cannot end a transaction: the client begins it (with the isolation
 * txn.c uses for the profile) and commits it after reading the row the procedure SUSPENDs;
 * New-Order's unused item raises dg_tpcc_no_item, which the procedure's outer block
 * catches, undoing the block's work (a savepoint), and the client rolls back. The lists are
 * comma-separated, read by a sub-function. */
static const char *const psql_pre[] = {
    "CREATE EXCEPTION dg_tpcc_error 'tpcc: a row the transaction needs is missing'",
    "CREATE EXCEPTION dg_tpcc_no_item 'tpcc: item not valid'",
};

#define PSQL_NTH                                                                               \
    "  DECLARE FUNCTION nth(s VARCHAR(255), k INT) RETURNS INT AS\n"                         \
    "    DECLARE i INT = 1;\n"                                                                \
    "    DECLARE p INT;\n"                                                                    \
    "  BEGIN\n"                                                                               \
    "    WHILE (i < k) DO BEGIN\n"                                                            \
    "      p = POSITION(',' IN s);\n"                                                         \
    "      s = SUBSTRING(s FROM p + 1);\n"                                                    \
    "      i = i + 1;\n"                                                                      \
    "    END\n"                                                                               \
    "    p = POSITION(',' IN s);\n"                                                           \
    "    IF (p = 0) THEN RETURN CAST(s AS INT);\n"                                            \
    "    RETURN CAST(SUBSTRING(s FROM 1 FOR p - 1) AS INT);\n"                                \
    "  END\n"

static const char *const psql_ddl[] = {
    /* New-Order */
    "CREATE PROCEDURE dg_tpcc_new_order(p_w INT, p_d INT, p_c INT, p_ol_cnt INT,\n"
    "  p_all_local INT, p_items VARCHAR(255), p_supply VARCHAR(255), p_qty VARCHAR(255),\n"
    "  p_num VARCHAR(255))\n"
    "RETURNS (status INT, o_id INT) AS\n"
    "  DECLARE v_w_tax NUMERIC(4,4);\n"
    "  DECLARE v_d_tax NUMERIC(4,4);\n"
    "  DECLARE v_disc NUMERIC(4,4);\n"
    "  DECLARE v_last VARCHAR(16);\n"
    "  DECLARE v_credit CHAR(2);\n"
    "  DECLARE v_price NUMERIC(5,2);\n"
    "  DECLARE v_iname VARCHAR(24);\n"
    "  DECLARE v_idata VARCHAR(50);\n"
    "  DECLARE v_sq INT;\n"
    "  DECLARE v_sdata VARCHAR(50);\n"
    "  DECLARE v_dist CHAR(24);\n"
    "  DECLARE v_item INT;\n"
    "  DECLARE v_sw INT;\n"
    "  DECLARE v_q INT;\n"
    "  DECLARE v_n INT;\n"
    "  DECLARE k INT;\n"
    PSQL_NTH
    "BEGIN\n"
    "  status = 0;\n"
    "  BEGIN\n"
    "    SELECT w_tax FROM warehouse WHERE w_id = :p_w INTO :v_w_tax;\n"
    "    IF (v_w_tax IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: warehouse not found';\n"
    "    UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = :p_w AND d_id = :p_d\n"
    "      RETURNING d_tax, d_next_o_id - 1 INTO :v_d_tax, :o_id;\n"
    "    IF (o_id IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: district not found';\n"
    "    SELECT c_discount, c_last, c_credit FROM customer\n"
    "      WHERE c_w_id = :p_w AND c_d_id = :p_d AND c_id = :p_c INTO :v_disc, :v_last, :v_credit;\n"
    "    IF (v_credit IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: customer not found';\n"
    "    INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,\n"
    "      o_all_local) VALUES (:o_id, :p_d, :p_w, :p_c, LOCALTIMESTAMP, NULL, :p_ol_cnt,\n"
    "      :p_all_local);\n"
    "    INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (:o_id, :p_d, :p_w);\n"
    "    k = 1;\n"
    "    WHILE (k <= p_ol_cnt) DO BEGIN\n"
    "      v_item = nth(p_items, k);\n"
    "      v_sw = nth(p_supply, k);\n"
    "      v_q = nth(p_qty, k);\n"
    "      v_n = nth(p_num, k);\n"
    "      v_price = NULL;\n"
    "      v_sq = NULL;\n"
    "      SELECT i_price, i_name, i_data FROM item WHERE i_id = :v_item\n"
    "        INTO :v_price, :v_iname, :v_idata;\n"
    "      IF (v_price IS NULL) THEN EXCEPTION dg_tpcc_no_item;\n"
    "      SELECT s_quantity, s_data, CASE :p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02\n"
    "        WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05\n"
    "        WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08\n"
    "        WHEN 9 THEN s_dist_09 ELSE s_dist_10 END\n"
    "        FROM stock WHERE s_i_id = :v_item AND s_w_id = :v_sw WITH LOCK\n"
    "        INTO :v_sq, :v_sdata, :v_dist;\n"
    "      IF (v_sq IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: stock (item, warehouse) not found';\n"
    "      UPDATE stock SET s_quantity = CASE WHEN :v_sq >= :v_q + 10 THEN :v_sq - :v_q\n"
    "          ELSE :v_sq - :v_q + 91 END, s_ytd = s_ytd + :v_q, s_order_cnt = s_order_cnt + 1,\n"
    "        s_remote_cnt = s_remote_cnt + CASE WHEN :v_sw <> :p_w THEN 1 ELSE 0 END\n"
    "        WHERE s_i_id = :v_item AND s_w_id = :v_sw;\n"
    "      INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,\n"
    "        ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)\n"
    "        VALUES (:o_id, :p_d, :p_w, :v_n, :v_item, :v_sw, NULL, :v_q, :v_q * :v_price,\n"
    "        :v_dist);\n"
    "      k = k + 1;\n"
    "    END\n"
    "    WHEN EXCEPTION dg_tpcc_no_item DO status = 1;\n"
    "  END\n"
    "  SUSPEND;\n"
    "END",

    /* Payment */
    "CREATE PROCEDURE dg_tpcc_payment(p_w INT, p_d INT, p_c_w INT, p_c_d INT, p_by_name INT,\n"
    "  p_c INT, p_last VARCHAR(16), p_amount NUMERIC(6,2))\n"
    "RETURNS (c_id_out INT, c_credit_out CHAR(2)) AS\n"
    "  DECLARE v_n INT;\n"
    "  DECLARE v_pos INT;\n"
    "  DECLARE v_wname VARCHAR(10);\n"
    "  DECLARE v_dname VARCHAR(10);\n"
    "  DECLARE v_s1 VARCHAR(20);\n"
    "  DECLARE v_s2 VARCHAR(20);\n"
    "  DECLARE v_city VARCHAR(20);\n"
    "  DECLARE v_st CHAR(2);\n"
    "  DECLARE v_zip CHAR(9);\n"
    "  DECLARE v_first VARCHAR(16);\n"
    "  DECLARE v_middle CHAR(2);\n"
    "  DECLARE v_clast VARCHAR(16);\n"
    "  DECLARE v_phone CHAR(16);\n"
    "  DECLARE v_since TIMESTAMP;\n"
    "  DECLARE v_lim NUMERIC(12,2);\n"
    "  DECLARE v_disc NUMERIC(4,4);\n"
    "  DECLARE v_bal NUMERIC(12,2);\n"
    "  DECLARE v_data VARCHAR(500);\n"
    "  DECLARE v_found INT;\n"
    "BEGIN\n"
    "  UPDATE warehouse SET w_ytd = w_ytd + :p_amount WHERE w_id = :p_w;\n"
    "  v_found = NULL;\n"
    "  SELECT 1, w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse\n"
    "    WHERE w_id = :p_w INTO :v_found, :v_wname, :v_s1, :v_s2, :v_city, :v_st, :v_zip;\n"
    "  IF (v_found IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: warehouse not found';\n"
    "  UPDATE district SET d_ytd = d_ytd + :p_amount WHERE d_w_id = :p_w AND d_id = :p_d;\n"
    "  v_found = NULL;\n"
    "  SELECT 1, d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district\n"
    "    WHERE d_w_id = :p_w AND d_id = :p_d\n"
    "    INTO :v_found, :v_dname, :v_s1, :v_s2, :v_city, :v_st, :v_zip;\n"
    "  IF (v_found IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: district not found';\n"
    "  c_id_out = p_c;\n"
    "  IF (p_by_name = 1) THEN BEGIN\n"
    "    SELECT COUNT(*) FROM customer\n"
    "      WHERE c_w_id = :p_c_w AND c_d_id = :p_c_d AND c_last = :p_last INTO :v_n;\n"
    "    IF (v_n = 0) THEN EXCEPTION dg_tpcc_error 'tpcc: no customer with that last name';\n"
    "    v_pos = (v_n + 1) / 2;\n"
    "    SELECT c_id FROM customer WHERE c_w_id = :p_c_w AND c_d_id = :p_c_d\n"
    "      AND c_last = :p_last ORDER BY c_first ROWS :v_pos TO :v_pos INTO :c_id_out;\n"
    "  END\n"
    "  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,\n"
    "    c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer\n"
    "    WHERE c_w_id = :p_c_w AND c_d_id = :p_c_d AND c_id = :c_id_out WITH LOCK\n"
    "    INTO :v_first, :v_middle, :v_clast, :v_s1, :v_s2, :v_city, :v_st, :v_zip, :v_phone,\n"
    "      :v_since, :c_credit_out, :v_lim, :v_disc, :v_bal;\n"
    "  IF (c_credit_out IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: customer not found';\n"
    "  IF (c_credit_out = 'BC') THEN BEGIN\n"
    "    SELECT c_data FROM customer WHERE c_w_id = :p_c_w AND c_d_id = :p_c_d\n"
    "      AND c_id = :c_id_out INTO :v_data;\n"
    "    v_data = SUBSTRING(c_id_out || ' ' || p_c_d || ' ' || p_c_w || ' ' || p_d || ' ' ||\n"
    "      p_w || ' ' || CAST(p_amount AS VARCHAR(20)) || ' ' || COALESCE(v_data, '')\n"
    "      FROM 1 FOR 500);\n"
    "    UPDATE customer SET c_balance = c_balance - :p_amount,\n"
    "      c_ytd_payment = c_ytd_payment + :p_amount, c_payment_cnt = c_payment_cnt + 1,\n"
    "      c_data = :v_data WHERE c_w_id = :p_c_w AND c_d_id = :p_c_d AND c_id = :c_id_out;\n"
    "  END ELSE\n"
    "    UPDATE customer SET c_balance = c_balance - :p_amount,\n"
    "      c_ytd_payment = c_ytd_payment + :p_amount, c_payment_cnt = c_payment_cnt + 1\n"
    "      WHERE c_w_id = :p_c_w AND c_d_id = :p_c_d AND c_id = :c_id_out;\n"
    "  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount,\n"
    "    h_data) VALUES (:c_id_out, :p_c_d, :p_c_w, :p_d, :p_w, LOCALTIMESTAMP, :p_amount,\n"
    "    SUBSTRING(COALESCE(:v_wname, '') FROM 1 FOR 10) || '    ' ||\n"
    "      SUBSTRING(COALESCE(:v_dname, '') FROM 1 FOR 10));\n"
    "  SUSPEND;\n"
    "END",

    /* Order-Status */
    "CREATE PROCEDURE dg_tpcc_order_status(p_w INT, p_d INT, p_by_name INT, p_c INT,\n"
    "  p_last VARCHAR(16))\n"
    "RETURNS (c_id_out INT, o_id_out INT, ol_count INT) AS\n"
    "  DECLARE v_n INT;\n"
    "  DECLARE v_pos INT;\n"
    "  DECLARE v_bal NUMERIC(12,2);\n"
    "  DECLARE v_first VARCHAR(16);\n"
    "  DECLARE v_middle CHAR(2);\n"
    "  DECLARE v_clast VARCHAR(16);\n"
    "  DECLARE v_entry TIMESTAMP;\n"
    "  DECLARE v_carrier INT;\n"
    "  DECLARE v_i INT;\n"
    "  DECLARE v_sw INT;\n"
    "  DECLARE v_q INT;\n"
    "  DECLARE v_amount NUMERIC(6,2);\n"
    "  DECLARE v_deliv TIMESTAMP;\n"
    "BEGIN\n"
    "  c_id_out = p_c;\n"
    "  o_id_out = 0;\n"
    "  ol_count = 0;\n"
    "  IF (p_by_name = 1) THEN BEGIN\n"
    "    SELECT COUNT(*) FROM customer\n"
    "      WHERE c_w_id = :p_w AND c_d_id = :p_d AND c_last = :p_last INTO :v_n;\n"
    "    IF (v_n = 0) THEN EXCEPTION dg_tpcc_error 'tpcc: no customer with that last name';\n"
    "    v_pos = (v_n + 1) / 2;\n"
    "    SELECT c_id FROM customer WHERE c_w_id = :p_w AND c_d_id = :p_d\n"
    "      AND c_last = :p_last ORDER BY c_first ROWS :v_pos TO :v_pos INTO :c_id_out;\n"
    "  END\n"
    "  SELECT c_balance, c_first, c_middle, c_last FROM customer\n"
    "    WHERE c_w_id = :p_w AND c_d_id = :p_d AND c_id = :c_id_out\n"
    "    INTO :v_bal, :v_first, :v_middle, :v_clast;\n"
    "  IF (v_bal IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: customer not found';\n"
    "  SELECT o_id, o_entry_d, o_carrier_id FROM orders\n"
    "    WHERE o_w_id = :p_w AND o_d_id = :p_d AND o_c_id = :c_id_out\n"
    "    ORDER BY o_id DESC ROWS 1 INTO :o_id_out, :v_entry, :v_carrier;\n"
    "  IF (o_id_out > 0) THEN\n"
    "    FOR SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d\n"
    "      FROM order_line WHERE ol_w_id = :p_w AND ol_d_id = :p_d AND ol_o_id = :o_id_out\n"
    "      INTO :v_i, :v_sw, :v_q, :v_amount, :v_deliv DO\n"
    "      ol_count = ol_count + 1;\n"
    "  SUSPEND;\n"
    "END",

    /* Delivery */
    "CREATE PROCEDURE dg_tpcc_delivery(p_w INT, p_carrier INT)\n"
    "RETURNS (skipped INT, races INT) AS\n"
    "  DECLARE d INT;\n"
    "  DECLARE v_o INT;\n"
    "  DECLARE v_c INT;\n"
    "  DECLARE v_min INT;\n"
    "  DECLARE v_tries INT;\n"
    "  DECLARE v_sum NUMERIC(12,2);\n"
    "BEGIN\n"
    "  skipped = 0;\n"
    "  races = 0;\n"
    "  d = 1;\n"
    "  WHILE (d <= 10) DO BEGIN\n"
    "    v_tries = 0;\n"
    "    WHILE (1 = 1) DO BEGIN\n"
    "      v_o = NULL;\n"
    "      DELETE FROM new_order WHERE no_w_id = :p_w AND no_d_id = :d AND no_o_id =\n"
    "        (SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = :p_w AND no_d_id = :d)\n"
    "        RETURNING no_o_id INTO :v_o;\n"
    "      IF (v_o IS NOT NULL) THEN LEAVE;\n"
    "      v_min = NULL;\n"
    "      SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = :p_w AND no_d_id = :d\n"
    "        INTO :v_min;\n"
    "      IF (v_min IS NULL) THEN LEAVE;\n"
    "      races = races + 1;\n"
    "      v_tries = v_tries + 1;\n"
    "      IF (v_tries >= 1000) THEN\n"
    "        EXCEPTION dg_tpcc_error 'tpcc: delivery lost 1000 races for the oldest new order';\n"
    "    END\n"
    "    IF (v_o IS NULL) THEN\n"
    "      skipped = skipped + 1;\n"
    "    ELSE BEGIN\n"
    "      v_c = NULL;\n"
    "      UPDATE orders SET o_carrier_id = :p_carrier WHERE o_w_id = :p_w AND o_d_id = :d\n"
    "        AND o_id = :v_o RETURNING o_c_id INTO :v_c;\n"
    "      IF (v_c IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: order not found';\n"
    "      UPDATE order_line SET ol_delivery_d = LOCALTIMESTAMP WHERE ol_w_id = :p_w\n"
    "        AND ol_d_id = :d AND ol_o_id = :v_o;\n"
    "      v_sum = NULL;\n"
    "      SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = :p_w AND ol_d_id = :d\n"
    "        AND ol_o_id = :v_o INTO :v_sum;\n"
    "      UPDATE customer SET c_balance = c_balance + COALESCE(:v_sum, 0),\n"
    "        c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = :p_w AND c_d_id = :d\n"
    "        AND c_id = :v_c;\n"
    "    END\n"
    "    d = d + 1;\n"
    "  END\n"
    "  SUSPEND;\n"
    "END",

    /* Stock-Level */
    "CREATE PROCEDURE dg_tpcc_stock_level(p_w INT, p_d INT, p_threshold INT)\n"
    "RETURNS (low_stock INT) AS\n"
    "  DECLARE v_next INT;\n"
    "BEGIN\n"
    "  SELECT d_next_o_id FROM district WHERE d_w_id = :p_w AND d_id = :p_d INTO :v_next;\n"
    "  IF (v_next IS NULL) THEN EXCEPTION dg_tpcc_error 'tpcc: district not found';\n"
    "  SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = :p_w\n"
    "    AND ol_d_id = :p_d AND ol_o_id < :v_next AND ol_o_id >= :v_next - 20\n"
    "    AND s_w_id = :p_w AND s_i_id = ol_i_id AND s_quantity < :p_threshold INTO :low_stock;\n"
    "  SUSPEND;\n"
    "END",
};

static const char *const psql_calls[] = {
    "SELECT status, o_id FROM dg_tpcc_new_order(?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "SELECT c_id_out, c_credit_out FROM dg_tpcc_payment(?, ?, ?, ?, ?, ?, ?, ?)",
    "SELECT c_id_out, o_id_out, ol_count FROM dg_tpcc_order_status(?, ?, ?, ?, ?)",
    "SELECT skipped, races FROM dg_tpcc_delivery(?, ?)",
    "SELECT low_stock FROM dg_tpcc_stock_level(?, ?, ?)",
};

static const char *const psql_post[] = {"dg_tpcc_error", "dg_tpcc_no_item"};

/* ---- install, drop ----------------------------------------------------------------------------- */

bool dg_tpcc_procs_available(const dg_dialect *d)
{
    return d->proc_style != DG_PROC_NONE;
}

/* Firebird has no DROP ... IF EXISTS: drops object `name` of `kind` ("PROCEDURE",
 * "EXCEPTION") when the system table lists it. */
static int psql_drop(dg_conn *conn, const char *kind, const char *name, dg_err *err)
{
    char upper[64], sql[160];
    size_t n = strlen(name);
    for (size_t i = 0; i <= n && i < sizeof upper; i++)
        upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
    bool proc = !strcmp(kind, "PROCEDURE");
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM %s WHERE %s = ?",
             proc ? "rdb$procedures" : "rdb$exceptions",
             proc ? "rdb$procedure_name" : "rdb$exception_name");
    dg_value p = dg_vstr(upper);
    int64_t count = 0;
    bool found = false;
    int rc = dg_query_int(conn, sql, &p, 1, &count, &found, err);
    if (rc || count == 0)
        return rc;
    snprintf(sql, sizeof sql, "DROP %s %s", kind, name);
    return dg_exec(conn, sql, err);
}

/* Db2 has no DROP PROCEDURE IF EXISTS: drops procedure `name` of the current schema when
 * the catalog lists it. */
static int sqlpl_drop(dg_conn *conn, const char *name, dg_err *err)
{
    char upper[64], sql[96];
    size_t n = strlen(name);
    for (size_t i = 0; i <= n && i < sizeof upper; i++)
        upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
    dg_value p = dg_vstr(upper);
    int64_t count = 0;
    bool found = false;
    int rc = dg_query_int(conn,
                          "SELECT COUNT(*) FROM SYSCAT.ROUTINES WHERE ROUTINESCHEMA = CURRENT "
                          "SCHEMA AND ROUTINENAME = ? AND ROUTINETYPE = 'P'",
                          &p, 1, &count, &found, err);
    if (rc || count == 0)
        return rc;
    snprintf(sql, sizeof sql, "DROP PROCEDURE %s", name);
    return dg_exec(conn, sql, err);
}

int dg_tpcc_procs_drop(dg_conn *conn, dg_err *err)
{
    dg_proc_style style = conn->dialect->proc_style;
    if (style == DG_PROC_NONE)
        return 0;
    char sql[128];
    int rc = 0;
    for (int i = 0; i < NPROCS && rc == 0; i++) {
        if (style == DG_PROC_PSQL) {
            rc = psql_drop(conn, "PROCEDURE", proc_names[i], err);
        } else if (style == DG_PROC_SQLPL) {
            rc = sqlpl_drop(conn, proc_names[i], err);
        } else {
            snprintf(sql, sizeof sql, "DROP PROCEDURE IF EXISTS %s", proc_names[i]);
            rc = dg_exec(conn, sql, err);
        }
        if (rc)
            dg_err_prefix(err, "dropping procedure %s", proc_names[i]);
    }
    for (size_t i = 0; style == DG_PROC_PSQL && rc == 0 && i < sizeof psql_post / sizeof psql_post[0]; i++)
        if ((rc = psql_drop(conn, "EXCEPTION", psql_post[i], err)) != 0)
            dg_err_prefix(err, "dropping exception %s", psql_post[i]);
    return rc;
}

static bool has_procs(const dg_backend *be, const void *unused)
{
    (void)unused;
    return dg_tpcc_procs_available(be->dialect);
}

int dg_tpcc_procs_install(dg_conn *conn, dg_err *err)
{
    const dg_dialect *d = conn->dialect;
    if (!dg_tpcc_procs_available(d)) {
        char which[128];
        if (dg_backend_names_where(has_procs, NULL, which, sizeof which) == 0)
            snprintf(which, sizeof which, "no backend: it was built without the server ones");
        return dg_err_fail(err, DG_E_INVAL,
                           "tpcc --wl-opt procedures=1: dbgauge has no stored procedures for "
                           "%s (this build has them for %s)",
                           d->name, which);
    }
    const char *const *ddl = d->proc_style == DG_PROC_PLPGSQL ? pg_ddl
                             : d->proc_style == DG_PROC_PSQL  ? psql_ddl
                             : d->proc_style == DG_PROC_SQLPL ? sqlpl_ddl
                                                              : psm_ddl;
    int rc = dg_tpcc_procs_drop(conn, err);
    for (size_t i = 0; d->proc_style == DG_PROC_PSQL && rc == 0 && i < sizeof psql_pre / sizeof psql_pre[0]; i++)
        rc = dg_exec(conn, psql_pre[i], err);
    for (int i = 0; i < NPROCS && rc == 0; i++) {
        rc = dg_exec(conn, ddl[i], err);
        if (rc)
            dg_err_prefix(err, "creating procedure %s", proc_names[i]);
    }
    return rc;
}

/* ---- a terminal's calls ------------------------------------------------------------------------ */

int dg_tpcc_procs_term_init(dg_tpcc_term *t, dg_conn *conn, dg_err *err)
{
    t->conn = conn;
    t->procs = true;
    dg_proc_style style = conn->dialect->proc_style;
    t->pg_arrays = style == DG_PROC_PLPGSQL;
    t->client_tx = style == DG_PROC_PSQL;
    const char *const *calls = style == DG_PROC_PLPGSQL ? pg_calls
                               : style == DG_PROC_PSQL  ? psql_calls
                                                        : psm_calls;
    int rc = 0;
    for (int i = 0; i < NPROCS && rc == 0; i++) {
        rc = dg_prepare(conn, calls[i], &t->pr[i], err);
        if (rc)
            dg_err_prefix(err, "preparing \"%s\" (were the procedures created? a run with "
                               "--wl-opt procedures=1 creates them)",
                          calls[i]);
    }
    if (rc)
        dg_tpcc_term_fini(t);
    return rc;
}

/* Appends v's decimal digits to the list in buf at *n (no formatting call). */
static void put_int(char *buf, size_t *n, int64_t v)
{
    char tmp[24];
    int k = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[(*n)++] = '-';
    while (k)
        buf[(*n)++] = tmp[--k];
}

/* A list of ints as the call's text parameter: "{1,2,3}" (PostgreSQL arrays) or "1,2,3". */
typedef struct int_list {
    char buf[TPCC_MAX_OL * 22 + 4];
    size_t n;
    int count;
} int_list;

static void list_start(int_list *l, bool braces)
{
    l->n = 0;
    l->count = 0;
    if (braces)
        l->buf[l->n++] = '{';
}

static void list_add(int_list *l, int64_t v)
{
    if (l->count++)
        l->buf[l->n++] = ',';
    put_int(l->buf, &l->n, v);
}

static dg_value list_end(int_list *l, bool braces)
{
    if (braces)
        l->buf[l->n++] = '}';
    l->buf[l->n] = '\0';
    return dg_vtext(l->buf, l->n);
}

/* Runs call i and steps to its one row of results, which the caller reads, then resets
 * the statement and calls finish(). Where the client owns the transaction (Firebird),
 * begins it first. */
static int call_row(dg_tpcc_term *t, int i, const dg_value *p, int n, dg_err *err)
{
    dg_stmt *s = t->pr[i];
    int rc = t->client_tx ? dg_begin(t->conn, dg_tpcc_tx_opts[i], err) : 0;
    if (rc)
        return rc;
    rc = dg_execute(s, p, n, err);
    if (rc == 0) {
        int r = dg_fetch(s, err);
        if (r == 0)
            rc = dg_err_set(err, DG_E_DB, DG_EC_USER, 0, NULL,
                            "tpcc: procedure %s returned no result row", proc_names[i]);
        else if (r < 0)
            rc = r;
    }
    if (rc)
        dg_stmt_reset(s);
    return rc;
}

/* Ends a transaction the client began (commits, or rolls back New-Order's unused item). */
static int finish(dg_tpcc_term *t, bool rollback, dg_err *err)
{
    if (!t->client_tx)
        return 0;
    return rollback ? dg_rollback(t->conn, err) : dg_commit(t->conn, err);
}

static int64_t col_i(dg_stmt *s, int i)
{
    dg_value v;
    dg_column(s, i, &v);
    int64_t x = 0;
    return dg_value_as_int(&v, &x) ? x : 0;
}

int dg_tpcc_proc_new_order(dg_tpcc_term *t, const dg_tpcc_no_in *in, dg_tpcc_no_out *out,
                           dg_err *err)
{
    memset(out, 0, sizeof *out);
    /* lines in (supply warehouse, item) order, each with its OL_NUMBER, as txn.c does */
    int idx[TPCC_MAX_OL];
    dg_tpcc_line_order(in, idx);
    bool all_local = true;
    for (int i = 0; i < in->ol_cnt; i++)
        all_local = all_local && in->line[i].supply_w_id == in->w_id;
    bool br = t->pg_arrays;
    int_list items, supply, qty, num;
    list_start(&items, br);
    list_start(&supply, br);
    list_start(&qty, br);
    list_start(&num, br);
    for (int k = 0; k < in->ol_cnt; k++) {
        const dg_tpcc_line_in *li = &in->line[idx[k]];
        list_add(&items, li->i_id);
        list_add(&supply, li->supply_w_id);
        list_add(&qty, li->quantity);
        list_add(&num, idx[k] + 1);
    }
    dg_value p[9] = {dg_vint(in->w_id),        dg_vint(in->d_id),       dg_vint(in->c_id),
                     dg_vint(in->ol_cnt),      dg_vint(all_local ? 1 : 0), list_end(&items, br),
                     list_end(&supply, br),    list_end(&qty, br),      list_end(&num, br)};
    int rc = call_row(t, 0, p, 9, err);
    if (rc)
        return rc;
    out->rolled_back = col_i(t->pr[0], 0) == 1;
    out->o_id = col_i(t->pr[0], 1);
    dg_stmt_reset(t->pr[0]);
    return finish(t, out->rolled_back, err);
}

int dg_tpcc_proc_payment(dg_tpcc_term *t, const dg_tpcc_pay_in *in, dg_tpcc_pay_out *out,
                         dg_err *err)
{
    memset(out, 0, sizeof *out);
    dg_value p[8] = {dg_vint(in->w_id),           dg_vint(in->d_id),  dg_vint(in->c_w_id),
                     dg_vint(in->c_d_id),         dg_vint(in->by_name ? 1 : 0),
                     dg_vint(in->by_name ? 0 : in->c_id),
                     dg_vstr(in->by_name ? in->c_last : ""), dg_vnumeric(in->amount_cents, 2)};
    int rc = call_row(t, 1, p, 8, err);
    if (rc)
        return rc;
    out->c_id = col_i(t->pr[1], 0);
    dg_value v;
    dg_column(t->pr[1], 1, &v);
    if (v.type == DG_V_TEXT) {
        size_t n = v.u.s.len < 2 ? v.u.s.len : 2;
        memcpy(out->c_credit, v.u.s.ptr, n);
        out->c_credit[n] = '\0';
    }
    dg_stmt_reset(t->pr[1]);
    return finish(t, false, err);
}

int dg_tpcc_proc_order_status(dg_tpcc_term *t, const dg_tpcc_os_in *in, dg_tpcc_os_out *out,
                              dg_err *err)
{
    memset(out, 0, sizeof *out);
    dg_value p[5] = {dg_vint(in->w_id), dg_vint(in->d_id), dg_vint(in->by_name ? 1 : 0),
                     dg_vint(in->by_name ? 0 : in->c_id), dg_vstr(in->by_name ? in->c_last : "")};
    int rc = call_row(t, 2, p, 5, err);
    if (rc)
        return rc;
    out->c_id = col_i(t->pr[2], 0);
    out->o_id = col_i(t->pr[2], 1);
    out->ol_count = (int)col_i(t->pr[2], 2);
    dg_stmt_reset(t->pr[2]);
    return finish(t, false, err);
}

int dg_tpcc_proc_delivery(dg_tpcc_term *t, const dg_tpcc_dl_in *in, dg_tpcc_dl_out *out,
                          dg_err *err)
{
    memset(out, 0, sizeof *out);
    dg_value p[2] = {dg_vint(in->w_id), dg_vint(in->carrier_id)};
    int rc = call_row(t, 3, p, 2, err);
    if (rc)
        return rc;
    out->skipped = (int)col_i(t->pr[3], 0);
    out->races = (int)col_i(t->pr[3], 1);
    dg_stmt_reset(t->pr[3]);
    return finish(t, false, err);
}

int dg_tpcc_proc_stock_level(dg_tpcc_term *t, const dg_tpcc_sl_in *in, dg_tpcc_sl_out *out,
                             dg_err *err)
{
    memset(out, 0, sizeof *out);
    dg_value p[3] = {dg_vint(in->w_id), dg_vint(in->d_id), dg_vint(in->threshold)};
    int rc = call_row(t, 4, p, 3, err);
    if (rc)
        return rc;
    out->low_stock = col_i(t->pr[4], 0);
    dg_stmt_reset(t->pr[4]);
    return finish(t, false, err);
}
