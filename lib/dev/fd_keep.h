/* The descriptors a process had at a moment, and closing the ones opened
 * since: a check run once more in the same process (check/verdict.h's
 * v_run_check) starts without the handles the first run left open (one
 * holding a priority, one subscribed to events). */
#ifndef V4L2C_FD_KEEP_H
#define V4L2C_FD_KEEP_H
#include <stdbool.h>

#define FD_KEEP_MAX 1024
struct fd_keep { bool open[FD_KEEP_MAX]; };
/* Note every descriptor open now (/proc/self/fd). */
void fd_keep_note(struct fd_keep *k);
/* Close every descriptor above 2 not noted (and any beyond FD_KEEP_MAX). */
void fd_keep_close_new(const struct fd_keep *k);
#endif
