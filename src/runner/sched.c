/*
 * sched.c - fibers on one thread, an epoll loop and a timer heap (see sched.h).
 *
 * Switching: on x86-64 a few lines of assembly save the callee-saved registers on the
 * running stack and load the other stack's (no system call; swapcontext's signal-mask
 * save and restore were two system calls per wait, as many as the wait itself); elsewhere
 * swapcontext.
 *
 * Layout: the context switch; sanitizer annotations; the structures; the heap of deadlines; switching
 * (resume: loop -> fiber, park: fiber -> loop, the trampoline a fiber starts in); the
 * waiter (wait_fd, sleep_until); the loop.
 *
 * A fiber is in at most one of: the run queue (runnable), the heap (a deadline), epoll
 * (fd >= 0, by_fd[fd] == fiber); a wait for a socket with a deadline is in the last two
 * at once, and whichever fires first takes it out of the other (a registration left
 * armed can only wake it spuriously later, which wait_fd's callers allow).
 *
 * Registrations: a wait for reading leaves its socket registered for input (level-
 * triggered), so the next one costs no system call: a terminal waits for every result
 * on the same socket. Input that arrives while nobody waits (a notice during think time)
 * disarms it, and the next wait re-arms it. A wait that includes writing is one-shot.
 * A closed descriptor leaves epoll by itself, without telling us: so a backend calls
 * dg_wait_forget for the socket of each connect step (core/wait.h), and the next wait
 * registers the number afresh (ADD, or MOD where epoll still holds it).
 */
#define _GNU_SOURCE
#include "runner/sched.h"

#include "core/clock.h"
#include "core/err.h"
#include "core/wait.h"
#include "core/xalloc.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <stdint.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__linux__)
#define SCHED_ASM 1
/* dg_sched_switch(&save, to): pushes rbp, rbx, r12-r15 and the SSE/x87 control words on
 * the running stack, stores its stack pointer in *save, loads `to` and pops the same from
 * there; returns into whatever pushed them (or into the trampoline, for a new stack). */
void dg_sched_switch(void **save, void *to);
__asm__(".text\n"
        ".globl dg_sched_switch\n"
        ".hidden dg_sched_switch\n"
        ".type dg_sched_switch,@function\n"
        "dg_sched_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $8, %rsp\n"
        "  stmxcsr (%rsp)\n"
        "  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n"
        "  fldcw 4(%rsp)\n"
        "  addq $8, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size dg_sched_switch,.-dg_sched_switch\n");
#endif

#if defined(__SANITIZE_ADDRESS__)
#define SCHED_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define SCHED_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCHED_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define SCHED_TSAN 1
#endif
#endif
#ifdef SCHED_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef SCHED_TSAN
#include <sanitizer/tsan_interface.h>
#endif

typedef struct fiber {
#ifdef SCHED_ASM
    void *sp; /* saved stack pointer while not running */
#else
    ucontext_t ctx;
#endif
    void (*fn)(void *);
    void *arg;
    char *map;         /* guard page, then the stack; NULL once returned */
    size_t map_bytes;
    int64_t deadline;  /* valid while heap_idx >= 0: not woken before it */
    int64_t latest;    /* nor after it, the heap's key: deadline plus the sleep's slack */
    int heap_idx;
    int fd;            /* the descriptor it waits for, -1 none */
    int result;        /* why it woke: 1 descriptor, 0 deadline (or a kick) */
    bool sleeping;     /* a sleep a kick ends */
    bool done;
    bool resting;      /* asked for a rest (dg_sched_rest_until) */
    bool returned;     /* its function returned after asking: the loop takes its stack */
    int64_t ready_ns;  /* when the loop saw it ready (0: never) */
    int64_t queued_ns; /* from then until it ran: its last wake's wait for the thread */
    /* the lowest frame a wait of this fiber parked at since its stack was last trimmed
     * (UINTPTR_MAX: none; 0: unknown, a new fiber's), and the long sleeps since then (see
     * TRIM_EVERY) */
    uintptr_t deepest;
    int untrimmed;
#ifdef SCHED_TSAN
    void *tsan;
#endif
#ifdef SCHED_ASAN
    const void *stack_bottom;
    size_t stack_size;
#endif
} fiber;

struct dg_sched {
    fiber main; /* the loop's own context (the thread's stack) */
    fiber *fibers; /* [max] */
    int n, max, live;
    size_t stack_bytes, page;
    fiber *cur;
    fiber **runq;  /* ring of max */
    int rq_head, rq_len;
    fiber **heap;  /* [max], min-heap on latest */
    int heap_n;
    char **pool;   /* stacks of fibers that rest, for the next fiber that starts */
    int pool_n;
    unsigned gives; /* stacks given to the pool */
    int epfd, evfd;
    fiber **by_fd;
    unsigned char *fd_state; /* [by_fd_cap]: FD_* below */
    int by_fd_cap;
    bool pwait2; /* epoll_pwait2 works (Linux >= 5.11) */
    int64_t loop_ns; /* when the loop last returned from epoll */
    dg_sched_stats st;
    dg_waiter waiter;
};

static _Thread_local dg_sched *t_sched;

/* A sleep this long (think time, keying time) first gives back the stack pages below
 * the sleeper's frame when the fiber went deeper since its last trim, so that a thousand
 * thinking fibers do not each keep a deep excursion (a reconnect: name lookup, SCRAM)
 * resident. Whether it went deep is known from its waits: each records the lowest frame
 * it parked at, one comparison. A transaction's own waits stay within the page the
 * sleep keeps (PostgreSQL select-only: not one page fault more without the trim), and a
 * madvise per think for nothing was a system call per transaction (4-6% of the events
 * engine's CPU at 50 terminals with 100 ms think time). A deep call that returns
 * without waiting leaves no mark: every TRIM_EVERY-th long sleep trims anyway, which
 * bounds how long such pages stay. A short sleep never trims. */
#define TRIM_SLEEP_NS (10 * DG_NS_PER_MS)
#define TRIM_MARGIN 512 /* bytes kept below trim_stack's frame */
#define TRIM_EVERY 16

/* Rests (dg_sched_rest_until): a fiber whose function returns after asking for a rest
 * gives its stack to the pool and waits in the heap with none; at its deadline it takes
 * a stack from the pool (the one given back last: its pages are still resident and
 * cached) and runs its function from the start. A thousand terminals thinking 100 ms then
 * keep as many stacks as run transactions at once, not a page each. The pool keeps at most
 * POOL_KEEP stacks (more are unmapped), and a stack a wait used deeper than its top
 * POOL_TOP_PAGES pages gives the pages below them back as it enters the pool (a
 * reconnect's excursion; a transaction's waits stay in the top page), as does every
 * TRIM_EVERY-th one given back for a rest of TRIM_SLEEP_NS or more. */
#define POOL_KEEP 64
#define POOL_TOP_PAGES 2

enum { FD_NONE = 0, FD_INPUT, FD_ONESHOT, FD_DISARMED }; /* what epoll holds for a descriptor */

/* ---- the heap --------------------------------------------------------------------------- */

static void heap_set(dg_sched *s, int i, fiber *f)
{
    s->heap[i] = f;
    f->heap_idx = i;
}

static void heap_up(dg_sched *s, int i)
{
    fiber *f = s->heap[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (s->heap[p]->latest <= f->latest)
            break;
        heap_set(s, i, s->heap[p]);
        i = p;
    }
    heap_set(s, i, f);
}

static void heap_down(dg_sched *s, int i)
{
    fiber *f = s->heap[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= s->heap_n)
            break;
        if (c + 1 < s->heap_n && s->heap[c + 1]->latest < s->heap[c]->latest)
            c++;
        if (f->latest <= s->heap[c]->latest)
            break;
        heap_set(s, i, s->heap[c]);
        i = c;
    }
    heap_set(s, i, f);
}

static void heap_push(dg_sched *s, fiber *f)
{
    heap_set(s, s->heap_n++, f);
    heap_up(s, f->heap_idx);
}

static void heap_remove(dg_sched *s, fiber *f)
{
    int i = f->heap_idx;
    f->heap_idx = -1;
    fiber *last = s->heap[--s->heap_n];
    if (i == s->heap_n)
        return;
    heap_set(s, i, last);
    heap_up(s, i);
    heap_down(s, last->heap_idx);
}

/* ---- switching -------------------------------------------------------------------------- */

static void make_runnable(dg_sched *s, fiber *f, int result)
{
    f->result = result;
    f->ready_ns = s->loop_ns;
    s->runq[(s->rq_head + s->rq_len) % s->max] = f;
    s->rq_len++;
}

/* Switches from the running context `from` to `to` (the loop's context is s->main);
 * returns when something switches back to `from`. */
static void jump(fiber *from, fiber *to)
{
#ifdef SCHED_ASAN
    void *fake = NULL;
    /* a returned fiber's stack goes away (or to another fiber): no fake stack to keep */
    __sanitizer_start_switch_fiber(from->done || from->resting ? NULL : &fake, to->stack_bottom,
                                   to->stack_size);
#endif
#ifdef SCHED_TSAN
    __tsan_switch_to_fiber(to->tsan, 0);
#endif
#ifdef SCHED_ASM
    dg_sched_switch(&from->sp, to->sp);
#else
    swapcontext(&from->ctx, &to->ctx);
#endif
#ifdef SCHED_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

static int stack_take(dg_sched *s, fiber *f);

/* loop -> f; returns when f parks or returns. A fiber that rested takes a stack first;
 * when none can be mapped it tries again 10 ms later. */
static void resume(dg_sched *s, fiber *f)
{
    if (!f->map) {
        if (stack_take(s, f) != 0) {
            f->deadline = f->latest = dg_now_ns() + 10 * DG_NS_PER_MS;
            heap_push(s, f);
            return;
        }
        f->sleeping = false;
    }
    s->cur = f;
    /* how long it waited for its turn after what it waited for had come (other fibers of
     * this thread ran first): the time a result arrived is the loop's, not the fiber's */
    f->queued_ns = f->ready_ns ? dg_now_ns() - f->ready_ns : 0;
    jump(&s->main, f);
    s->cur = NULL;
}

/* the running fiber f -> loop; returns when the loop resumes f */
static void park(dg_sched *s, fiber *f)
{
    jump(f, &s->main);
}

static void trampoline(void)
{
    dg_sched *s = t_sched;
    fiber *f = s->cur;
#ifdef SCHED_ASAN
    __sanitizer_finish_switch_fiber(NULL, &s->main.stack_bottom, &s->main.stack_size);
#endif
    f->fn(f->arg);
    f->returned = f->resting;
    f->done = !f->resting;
    park(s, f); /* never resumed: a rest starts it afresh on a stack from the pool */
}

/* ---- the waiter --------------------------------------------------------------------------- */

static int wait_fd(void *ctx, int fd, int events, int64_t deadline_ns)
{
    dg_sched *s = ctx;
    fiber *f = s->cur;
    if (!f) { /* the loop itself never waits through here; be safe all the same */
        const dg_waiter *w = dg_waiter_get();
        dg_waiter_set(NULL);
        int rc = dg_wait_fd(fd, events, deadline_ns);
        dg_waiter_set(w);
        return rc;
    }
    assert(!f->resting); /* a rest is asked right before the fiber's function returns */
    if (deadline_ns <= dg_now_ns())
        return 0;
    if (fd >= s->by_fd_cap) {
        int cap = s->by_fd_cap ? s->by_fd_cap : 64;
        while (cap <= fd)
            cap *= 2;
        s->by_fd = xrealloc(s->by_fd, sizeof *s->by_fd * (size_t)cap);
        s->fd_state = xrealloc(s->fd_state, (size_t)cap);
        memset(s->by_fd + s->by_fd_cap, 0, sizeof *s->by_fd * (size_t)(cap - s->by_fd_cap));
        memset(s->fd_state + s->by_fd_cap, FD_NONE, (size_t)(cap - s->by_fd_cap));
        s->by_fd_cap = cap;
    }
    bool input_only = events == DG_WAIT_READ;
    if (!(input_only && s->fd_state[fd] == FD_INPUT)) {
        struct epoll_event ev = {
            .events = input_only ? EPOLLIN | EPOLLRDHUP
                                 : EPOLLONESHOT | EPOLLOUT |
                                       (events & DG_WAIT_READ ? EPOLLIN | EPOLLRDHUP : 0u),
            .data.fd = fd,
        };
        int op = s->fd_state[fd] == FD_NONE ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
        if (epoll_ctl(s->epfd, op, fd, &ev) != 0) {
            /* ours was stale: the descriptor was closed (ENOENT) or is another's (EEXIST) */
            op = errno == ENOENT ? EPOLL_CTL_ADD : errno == EEXIST ? EPOLL_CTL_MOD : -1;
            if (op < 0 || epoll_ctl(s->epfd, op, fd, &ev) != 0) {
                s->fd_state[fd] = FD_NONE;
                return errno == EPERM ? 1 : DG_E_IO; /* EPERM: a file, always ready */
            }
        }
        s->fd_state[fd] = input_only ? FD_INPUT : FD_ONESHOT;
    }
    s->by_fd[fd] = f;
    f->fd = fd;
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    if (frame < f->deepest)
        f->deepest = frame;
    if (deadline_ns != INT64_MAX) {
        f->deadline = f->latest = deadline_ns;
        heap_push(s, f);
    }
    park(s, f);
    if (s->by_fd[fd] == f)
        s->by_fd[fd] = NULL;
    f->fd = -1;
    return f->result;
}

static void trim_stack(dg_sched *s);

/* Before a long sleep: trims the running fiber's stack when a wait since its last trim
 * parked within TRIM_MARGIN (what the park's own frames take below the wait) of the
 * pages trim_stack would give back, or every TRIM_EVERY-th time. The line is computed
 * from this frame, which is at or above trim_stack's: at or above the line it uses. */
static __attribute__((noinline)) void trim_if_deep(dg_sched *s, fiber *f)
{
    uintptr_t line = ((uintptr_t)__builtin_frame_address(0) - TRIM_MARGIN) & ~(uintptr_t)(s->page - 1);
    if (f->deepest >= line + TRIM_MARGIN && ++f->untrimmed < TRIM_EVERY)
        return;
    trim_stack(s);
}

static void sleep_until(void *ctx, int64_t deadline_ns, int64_t slack_ns)
{
    dg_sched *s = ctx;
    fiber *f = s->cur;
    if (!f) {
        const dg_waiter *w = dg_waiter_get();
        dg_waiter_set(NULL);
        dg_sleep_until_ns(deadline_ns);
        dg_waiter_set(w);
        return;
    }
    assert(!f->resting);
    int64_t now = dg_now_ns();
    if (deadline_ns <= now)
        return;
    if (deadline_ns - now >= TRIM_SLEEP_NS)
        trim_if_deep(s, f);
    f->sleeping = true;
    f->deadline = deadline_ns;
    f->latest = slack_ns > 0 && deadline_ns < INT64_MAX - slack_ns ? deadline_ns + slack_ns
                                                                   : deadline_ns;
    heap_push(s, f);
    park(s, f);
    f->sleeping = false;
}

static int64_t queued_since(void *ctx, int64_t since_ns)
{
    dg_sched *s = ctx;
    fiber *f = s->cur;
    return f && f->ready_ns >= since_ns ? f->queued_ns : 0;
}

static void forget_fd(void *ctx, int fd)
{
    dg_sched *s = ctx;
    if (fd >= 0 && fd < s->by_fd_cap)
        s->fd_state[fd] = FD_NONE;
}

static void trim_stack(dg_sched *s)
{
    /* the frame's address, not a local's: under AddressSanitizer locals may live on a
     * fake stack elsewhere */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    uintptr_t lo = (uintptr_t)(s->cur->map + s->page);
    uintptr_t top = (uintptr_t)(s->cur->map + s->cur->map_bytes);
    /* below here only madvise's own frame (a return address and a few words: the call
     * itself runs in the kernel); the page holding it and everything above stay */
    uintptr_t to = (here - TRIM_MARGIN) & ~(uintptr_t)(s->page - 1);
    if (here < top && to > lo) {
        madvise((void *)lo, to - lo, MADV_DONTNEED);
        s->st.trims++;
    }
    s->cur->deepest = UINTPTR_MAX;
    s->cur->untrimmed = 0;
}

/* ---- the scheduler -------------------------------------------------------------------------- */

dg_sched *dg_sched_new(int max_fibers, size_t stack_bytes)
{
    if (max_fibers <= 0) {
        errno = EINVAL;
        return NULL;
    }
    dg_sched *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->page = (size_t)sysconf(_SC_PAGESIZE);
    s->stack_bytes = (stack_bytes + s->page - 1) / s->page * s->page;
    s->max = max_fibers;
    s->fibers = calloc((size_t)max_fibers, sizeof *s->fibers);
    s->runq = calloc((size_t)max_fibers, sizeof *s->runq);
    s->heap = calloc((size_t)max_fibers, sizeof *s->heap);
    s->pool = calloc(POOL_KEEP, sizeof *s->pool);
    s->epfd = epoll_create1(EPOLL_CLOEXEC);
    s->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    s->pwait2 = true;
    s->waiter = (dg_waiter){.wait_fd = wait_fd, .sleep_until = sleep_until,
                            .forget_fd = forget_fd, .queued_since = queued_since, .ctx = s};
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = s->evfd};
    if (!s->fibers || !s->runq || !s->heap || !s->pool || s->epfd < 0 || s->evfd < 0 ||
        epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->evfd, &ev) != 0) {
        int e = errno;
        dg_sched_free(s);
        errno = e;
        return NULL;
    }
    return s;
}

static void fiber_release(fiber *f)
{
    if (f->map) {
#ifdef SCHED_ASAN
        /* A fiber ends parked: its last frames never return, and their redzones stay in
         * AddressSanitizer's shadow after the unmap. Memory mapped later at these
         * addresses (a histogram block) would inherit them: a false "stack-buffer-
         * underflow" in whoever reads it. */
        __asan_unpoison_memory_region(f->map, f->map_bytes);
#endif
        munmap(f->map, f->map_bytes);
        f->map = NULL;
    }
#ifdef SCHED_TSAN
    if (f->tsan) {
        __tsan_destroy_fiber(f->tsan);
        f->tsan = NULL;
    }
#endif
}

void dg_sched_free(dg_sched *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        fiber_release(&s->fibers[i]);
    for (int i = 0; i < s->pool_n; i++) {
        fiber pooled = {.map = s->pool[i], .map_bytes = s->stack_bytes + s->page};
        fiber_release(&pooled);
    }
    if (s->epfd >= 0)
        close(s->epfd);
    if (s->evfd >= 0)
        close(s->evfd);
    free(s->fibers);
    free(s->runq);
    free(s->heap);
    free(s->pool);
    free(s->by_fd);
    free(s->fd_state);
    free(s);
}

/* Puts a stack under f, one from the pool or a new mapping with a guard page below it,
 * with the frame its first switch enters the trampoline from. 0 or DG_E_NOMEM / DG_E_IO. */
static int stack_take(dg_sched *s, fiber *f)
{
    f->map_bytes = s->stack_bytes + s->page;
    if (s->pool_n > 0) {
        f->map = s->pool[--s->pool_n];
    } else {
        void *m = mmap(NULL, f->map_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
        if (m == MAP_FAILED)
            return DG_E_NOMEM;
        f->map = m;
        mprotect(f->map, s->page, PROT_NONE); /* the guard: an overflow faults, not corrupts */
        s->st.stacks++;
    }
    /* a stack from the pool: its pages below the top were given back as it entered the
     * pool when a wait went deep (a new fiber's first long sleep trims: see spawn) */
    f->deepest = UINTPTR_MAX;
    f->untrimmed = 0;
#ifdef SCHED_ASM
    /* what dg_sched_switch pops on first entry, from the top T (16-aligned) down:
     * [T-8] 0, the trampoline's return address (it never returns; at its entry the stack
     * is then aligned as after a call), [T-16] the trampoline, [T-64..T-24] six registers
     * (0), [T-72] MXCSR and the x87 control word at their defaults */
    uint64_t *top = (uint64_t *)(f->map + f->map_bytes);
    top[-1] = 0;
    top[-2] = (uint64_t)(uintptr_t)trampoline;
    for (int i = 3; i <= 8; i++)
        top[-i] = 0;
    top[-9] = 0x1F80u | (uint64_t)0x037Fu << 32;
    f->sp = &top[-9];
#else
    if (getcontext(&f->ctx) != 0) {
        fiber_release(f);
        s->st.stacks--;
        return DG_E_IO;
    }
    f->ctx.uc_stack.ss_sp = f->map + s->page;
    f->ctx.uc_stack.ss_size = s->stack_bytes;
    f->ctx.uc_link = NULL;
    makecontext(&f->ctx, trampoline, 0);
#endif
#ifdef SCHED_TSAN
    f->tsan = __tsan_create_fiber(0);
#endif
#ifdef SCHED_ASAN
    f->stack_bottom = f->map + s->page;
    f->stack_size = s->stack_bytes;
#endif
    return 0;
}

/* A fiber that has just rested (its function returned; the loop runs on its own stack):
 * its stack to the pool, trimmed when a wait went deep in it, or unmapped past POOL_KEEP. */
static void stack_give(dg_sched *s, fiber *f)
{
#ifdef SCHED_TSAN
    __tsan_destroy_fiber(f->tsan); /* its frames never returned: a new one when it starts */
    f->tsan = NULL;
#endif
    if (s->pool_n == POOL_KEEP) {
        fiber_release(f);
        s->st.stacks--;
        return;
    }
#ifdef SCHED_ASAN
    /* the trampoline's and park's frames never return: their redzones would stay */
    __asan_unpoison_memory_region(f->map, f->map_bytes);
#endif
    uintptr_t lo = (uintptr_t)(f->map + s->page);
    uintptr_t keep = (uintptr_t)(f->map + f->map_bytes) - POOL_TOP_PAGES * s->page;
    /* a deep call that returned without waiting leaves no mark: every TRIM_EVERY-th stack
     * given back for a long rest is trimmed anyway (as a long sleep's; a short one never:
     * 1 ms think times made it a madvise every 16 transactions) */
    bool long_rest = f->deadline - dg_now_ns() >= TRIM_SLEEP_NS;
    if ((f->deepest < keep || (long_rest && ++s->gives % TRIM_EVERY == 0)) && keep > lo) {
        madvise((void *)lo, keep - lo, MADV_DONTNEED);
        s->st.trims++;
    }
    s->pool[s->pool_n++] = f->map;
    f->map = NULL;
}

int dg_sched_spawn(dg_sched *s, void (*fn)(void *), void *arg)
{
    if (s->n >= s->max)
        return DG_E_INVAL;
    fiber *f = &s->fibers[s->n];
    memset(f, 0, sizeof *f);
    f->fn = fn;
    f->arg = arg;
    f->heap_idx = -1;
    f->fd = -1;
    int rc = stack_take(s, f);
    if (rc != 0)
        return rc;
    f->deepest = 0; /* nothing is known of its first run (a connect goes deep): its first
                     * long sleep or rest trims */
    s->n++;
    s->live++;
    make_runnable(s, f, 0);
    return 0;
}

bool dg_sched_rest_until(int64_t deadline_ns, int64_t slack_ns)
{
    dg_sched *s = t_sched;
    fiber *f = s ? s->cur : NULL;
    if (!f)
        return false;
    f->resting = true;
    f->deadline = deadline_ns;
    f->latest = slack_ns > 0 && deadline_ns < INT64_MAX - slack_ns ? deadline_ns + slack_ns
                                                                   : deadline_ns;
    return true;
}

void dg_sched_kick(dg_sched *s)
{
    uint64_t one = 1;
    ssize_t w = write(s->evfd, &one, sizeof one); /* EAGAIN: already kicked */
    (void)w;
}

void *dg_sched_stack_low(void)
{
    dg_sched *s = t_sched;
    if (!s || !s->cur)
        return NULL;
    return s->cur->map + s->page;
}

void dg_sched_stats_get(const dg_sched *s, dg_sched_stats *out)
{
    *out = s->st;
}

/* Waits in epoll until a descriptor is ready, the kick, or the first deadline. */
static int loop_wait(dg_sched *s, struct epoll_event *evs, int nev)
{
    int64_t timeout = -1;
    if (s->rq_len > 0)
        timeout = 0;
    else if (s->heap_n > 0) {
        timeout = s->heap[0]->latest - dg_now_ns();
        if (timeout < 0)
            timeout = 0;
        if (timeout > 3600 * DG_NS_PER_S) /* a sleep without end (INT64_MAX): waits for a kick */
            timeout = 3600 * DG_NS_PER_S;
    }
    int n;
    if (s->pwait2) {
        struct timespec ts = {.tv_sec = timeout / DG_NS_PER_S, .tv_nsec = timeout % DG_NS_PER_S};
        n = epoll_pwait2(s->epfd, evs, nev, timeout < 0 ? NULL : &ts, NULL);
        if (n >= 0 || errno != ENOSYS)
            return n;
        s->pwait2 = false;
    }
    int ms = timeout < 0 ? -1 : (int)((timeout + DG_NS_PER_MS - 1) / DG_NS_PER_MS);
    return epoll_wait(s->epfd, evs, nev, ms);
}

void dg_sched_run(dg_sched *s)
{
    dg_sched *prev = t_sched;
    const dg_waiter *prev_w = dg_waiter_get();
    t_sched = s;
    dg_waiter_set(&s->waiter);
#ifdef SCHED_TSAN
    s->main.tsan = __tsan_get_current_fiber();
#endif
    struct epoll_event evs[64];
    while (s->live > 0) {
        /* everything runnable now; what they make runnable waits for the next round */
        for (int k = s->rq_len; k > 0; k--) {
            fiber *f = s->runq[s->rq_head];
            s->rq_head = (s->rq_head + 1) % s->max;
            s->rq_len--;
            resume(s, f);
            if (f->done) {
                s->live--;
                fiber_release(f);
                s->st.stacks--;
            } else if (f->returned) {
                f->returned = false;
                f->resting = false;
                stack_give(s, f);
                f->sleeping = true; /* a kick ends a rest as it ends a sleep */
                heap_push(s, f);
            }
        }
        if (s->live == 0)
            break;
        int n = loop_wait(s, evs, 64);
        if (n < 0 && errno != EINTR)
            n = 0; /* nothing sensible to do but look at the timers */
        s->st.wakeups++;
        s->loop_ns = dg_now_ns();
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == s->evfd) {
                uint64_t v;
                ssize_t r = read(s->evfd, &v, sizeof v);
                (void)r;
                for (int k = 0; k < s->n; k++) {
                    fiber *f = &s->fibers[k];
                    if (f->sleeping && f->heap_idx >= 0) {
                        heap_remove(s, f);
                        make_runnable(s, f, 0);
                    }
                }
                continue;
            }
            fiber *f = fd < s->by_fd_cap ? s->by_fd[fd] : NULL;
            if (!f || f->fd != fd) {
                /* nobody waits: a level-triggered registration would wake us again and
                 * again; disarm it until its next wait */
                if (fd < s->by_fd_cap && s->fd_state[fd] == FD_INPUT) {
                    struct epoll_event off = {.events = 0, .data.fd = fd};
                    epoll_ctl(s->epfd, EPOLL_CTL_MOD, fd, &off);
                    s->fd_state[fd] = FD_DISARMED;
                }
                continue;
            }
            if (s->fd_state[fd] == FD_ONESHOT)
                s->fd_state[fd] = FD_DISARMED;
            if (f->heap_idx >= 0)
                heap_remove(s, f);
            s->by_fd[fd] = NULL;
            f->fd = -1;
            make_runnable(s, f, 1);
        }
        /* Due: the first by its latest time, while its deadline has passed. A sleep with
         * slack ends at the first wake-up (a result, another's deadline) after its deadline,
         * or at its latest; one deeper in the heap whose deadline has passed too waits for
         * a later wake-up, never past its own latest (the top's is at most that). */
        int64_t now = s->loop_ns;
        while (s->heap_n > 0 && s->heap[0]->deadline <= now) {
            fiber *f = s->heap[0];
            heap_remove(s, f);
            int64_t lag = now > f->latest ? now - f->latest : 0;
            s->st.timers++;
            s->st.lag_sum_ns += lag;
            if (lag > s->st.lag_max_ns)
                s->st.lag_max_ns = lag;
            if (f->fd >= 0) { /* its socket's deadline: leave epoll's registration stale */
                if (f->fd < s->by_fd_cap && s->by_fd[f->fd] == f)
                    s->by_fd[f->fd] = NULL;
                f->fd = -1;
            }
            make_runnable(s, f, 0);
        }
    }
    t_sched = prev;
    dg_waiter_set(prev_w);
}
