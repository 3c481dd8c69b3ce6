/* wait.c - the thread's waiter (see wait.h). */
#include "core/wait.h"

#include "core/clock.h"
#include "core/err.h"

#include <errno.h>
#include <poll.h>

static _Thread_local const dg_waiter *t_waiter;

void dg_waiter_set(const dg_waiter *w)
{
    t_waiter = w;
}

const dg_waiter *dg_waiter_get(void)
{
    return t_waiter;
}

void dg_wait_forget(int fd)
{
    if (t_waiter && t_waiter->forget_fd)
        t_waiter->forget_fd(t_waiter->ctx, fd);
}

int dg_wait_fd(int fd, int events, int64_t deadline_ns)
{
    if (t_waiter)
        return t_waiter->wait_fd(t_waiter->ctx, fd, events, deadline_ns);
    struct pollfd p = {.fd = fd,
                       .events = (short)((events & DG_WAIT_READ ? POLLIN : 0) |
                                         (events & DG_WAIT_WRITE ? POLLOUT : 0))};
    for (;;) {
        int ms = -1;
        if (deadline_ns != INT64_MAX) {
            int64_t left = deadline_ns - dg_now_ns();
            if (left <= 0)
                return 0;
            ms = (int)((left + DG_NS_PER_MS - 1) / DG_NS_PER_MS);
        }
        int n = poll(&p, 1, ms);
        if (n > 0)
            return 1;
        if (n == 0)
            continue; /* the deadline is checked above */
        if (errno != EINTR)
            return DG_E_IO;
    }
}
