/* The runner's clock for a check's timeout: the time the guest ran. On the
 * virtual board (QEMU, TCG) the guest's clock goes on while the host gives
 * QEMU no CPU, so on a busy machine a check's timeout would run out while
 * the check was not run at all: a verdict that depends on the host's load.
 * The runner waits in slices; a slice that ends later than asked by more
 * than RUN_CLOCK_SLACK_S was time the runner (and so the guest, on a
 * one-vCPU board) was not given: it is not counted. A driver that sleeps
 * for good leaves the runner's slices on time, so its hang is found in the
 * timeout as before. At most `cap_s` seconds are discounted: every wait
 * stays bounded, however starved (or spinning) the machine is. */
#ifndef V4L2C_RUN_CLOCK_H
#define V4L2C_RUN_CLOCK_H
#include <poll.h>
#include <stdbool.h>

#define RUN_CLOCK_SLICE_S 0.2	/* a wait's longest slice */
#define RUN_CLOCK_SLACK_S 0.05	/* lateness within this is the scheduler's, not starvation */
#define RUN_CLOCK_CAP 3.0	/* a timeout of T discounts at most 3 T: it ends within 4 T */

struct run_clock {
	double stolen;	/* seconds not given, counted so far */
	double cap;	/* at most this much is discounted */
};

/* A clock from now on: nothing discounted yet, at most cap_s. */
void run_clock_start(struct run_clock *c, double cap_s);
/* The seconds that count: CLOCK_MONOTONIC less what was not given. */
double run_clock_now(const struct run_clock *c);
/* One slice waited: asked_s asked, took_s taken. The lateness beyond the
 * slack is counted as not given (pure: the unit tests drive it). */
void run_clock_account(struct run_clock *c, double asked_s, double took_s);
/* poll() on pf until `deadline` (in run_clock_now's seconds) at most, one
 * slice: poll's result (0 when the slice ended with nothing). */
int run_clock_poll(struct run_clock *c, struct pollfd *pf, double deadline);
/* Sleep a slice of at most `s` seconds, counted. */
void run_clock_nap(struct run_clock *c, double s);
#endif
