/* signals.c - see signals.h. */
#include "core/signals.h"

#include <string.h>

void dg_signals_catch(void (*fn)(int), dg_sigsave *save)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &save->intr);
    sigaction(SIGTERM, &sa, &save->term);
}

void dg_signals_restore(const dg_sigsave *save)
{
    sigaction(SIGINT, &save->intr, NULL);
    sigaction(SIGTERM, &save->term, NULL);
}
