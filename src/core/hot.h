/*
 * hot.h - DG_HOT marks a function of the measured path: what runs for every transaction
 * (the terminal loop, a workload's transaction, a backend's execute, fetch, column and
 * reset).
 *
 * GCC and clang place such functions together (.text.hot), so a transaction's own code
 * spans two or three pages instead of one or two per source file. On a kernel that
 * isolates its page tables without PCID (Meltdown's mitigation on older or virtual
 * CPUs) every system call empties the TLB, and each distinct page the path touches
 * afterwards costs a page walk: SQLite's point select makes four system calls a
 * transaction. See docs/benchmarks.md, "SQLite against the minimal loop".
 */
#ifndef DG_CORE_HOT_H
#define DG_CORE_HOT_H

#if defined(__GNUC__)
#define DG_HOT __attribute__((hot))
#else
#define DG_HOT
#endif

#endif
