/*
 * hot.h - DG_HOT marks a function of the measured path, run for every transaction: the
 * terminal loop, each backend's execute, fetch, column and reset, and tpcb's transactions
 * (select-only is one point query, so there the driver's own code is most of what the
 * client does; bench/sqlite-overhead measures it against a bare loop).
 *
 * GCC and clang place such functions together (.text.hot), so a transaction's own code
 * spans two or three pages instead of one or two per source file. On a kernel that
 * isolates its page tables without PCID (Meltdown's mitigation on older or virtual
 * CPUs) every system call empties the TLB, and each distinct page the path touches
 * afterwards costs a page walk: SQLite's point select makes three or four system calls a
 * transaction. See docs/benchmarks.md ("Pages, not only instructions").
 */
#ifndef DG_CORE_HOT_H
#define DG_CORE_HOT_H

#define DG_HOT __attribute__((hot))

#endif
