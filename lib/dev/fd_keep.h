/* The descriptors a process had at a moment, and closing the ones opened
 * since: a check run once more in the same process (check/verdict.h's
 * v_run_check) starts without the handles the first run left open (one
 * holding a priority, one subscribed to events). */
#ifndef V4L2C_FD_KEEP_H
#define V4L2C_FD_KEEP_H
#include <stdbool.h>

#define FD_KEEP_MAX 1024
struct fd_keep { bool open[FD_KEEP_MAX]; };
/* Note every descriptor open now: a copy of the process's base set when
 * one is registered (fd_keep_use_base), else a listing of /proc/self/fd. */
void fd_keep_note(struct fd_keep *k);
/* The descriptors a process keeps open between its checks, kept true by
 * its owner (lib/run/run_batch.c's shared test process closes everything
 * else after each check), so that noting them before every check costs a
 * copy, not a /proc listing. FD_KEEP_MAX entries. */
void fd_keep_use_base(const bool *open);
/* Close every descriptor above 2 not noted (and any beyond FD_KEEP_MAX). */
void fd_keep_close_new(const struct fd_keep *k);
#endif
