/* A failed Check assertion in the shared test process, caught by the
 * runner instead of by Check.
 *
 * Check's no-fork mode costs, for every test, a temporary message file
 * (created, unlinked, written, rewound, read back, closed) and a write for
 * every assertion that holds (_mark_point): more than most checks do
 * themselves on an emulated board. The shared test process (run_batch.c)
 * runs its checks without Check's runner instead, and the binaries are
 * linked with --wrap=_ck_assert_failed,--wrap=_mark_point (Makefile): while
 * a check runs armed, a failed ck_assert*()/ck_abort_msg() ends it here
 * with Check's own message text, and a holding assertion costs nothing.
 * Outside an armed check (Check's fork mode for checks with a process of
 * their own, the unit tests) both go on to Check unchanged. */
#ifndef V4L2C_ASSERT_CATCH_H
#define V4L2C_ASSERT_CATCH_H
#include <setjmp.h>
#include <stddef.h>

/* Run fn(arg) armed. Returns 0 when it returned, 1 when an assertion
 * failed (its message in msg). Not reentrant: one check at a time. */
int assert_catch_run(void (*fn)(int), int arg, char *msg, size_t len);
/* While armed: leave the check now as a pass (batch_end_check). */
void assert_catch_leave(void) __attribute__((noreturn));
/* True while a check runs armed. */
int assert_catch_armed(void);
#endif
