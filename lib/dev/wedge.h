/* A wedged device ends the run in bounded time (issue 14). A driver whose
 * ioctl blocks uninterruptibly, or oopses holding its lock, stops answering
 * for good: each remaining check would wait for its own timeout. So every
 * ioctl of a check is noted in a page shared by the runner and its check
 * processes; a check process that finds the previous check died inside an
 * ioctl (killed at its timeout) asks the device, from a fresh process with a
 * short timeout, whether it still answers (open, QUERYCAP, one QUERYCTRL).
 * If not, it and every later check are skipped at once, and the runner ends
 * the run with one run/device-wedged failure naming the check and the ioctl. */
#ifndef V4L2C_WEDGE_H
#define V4L2C_WEDGE_H
#include <stdbool.h>
#include <stddef.h>

#define WEDGE_PROBE_S 5.0	/* how long a fresh process waits for an answer */
#define WEDGE_OPEN (~0UL)	/* "in flight": open() of the device */

/* Runner, before the checks run: the shared page (no-op if it fails). */
void wedge_init(void);
/* dev_ioctl, dev_open (WEDGE_OPEN): the call in flight (cheap stores; no-op
 * before wedge_init). */
void wedge_ioctl_begin(unsigned long req);
void wedge_ioctl_end(void);
/* "VIDIOC_S_CTRL", or "ioctl 0x%08lx". */
const char *wedge_ioctl_name(unsigned long req, char *buf, size_t len);
/* Does the device answer within timeout_s (from a forked process)? 0 yes,
 * 1 no (why says what did not answer). */
int wedge_probe(const char *device, double timeout_s, char *why, size_t len);
/* What the forked probe runs, and how long it is given (unit tests
 * replace them). */
extern void (*wedge_probe_child)(const char *device);
extern double wedge_probe_s;
/* Hook, first thing in a check process: true when the device is wedged
 * (the check must be skipped with wedge_reason()). */
bool wedge_before_check(const char *device, const char *check);
const char *wedge_reason(void);
/* Hook, runner after the last check, before it touches the device again:
 * the same question for the last check, which has no next check to ask it
 * (also when nothing was in flight but `anyway`: a test process was left
 * asleep in the kernel). True when the device is wedged. */
bool wedge_after_run(const char *device, bool anyway);
/* Hook, runner after each check definition: true once the device is wedged;
 * msg gets the run/device-wedged message. */
bool wedge_detected(char *msg, size_t len);
#endif
