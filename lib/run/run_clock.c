/* The runner's clock for timeouts: see run_clock.h. */
#include "run/run_clock.h"
#include <time.h>
#include <unistd.h>

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void run_clock_start(struct run_clock *c, double cap_s)
{
	c->stolen = 0;
	c->cap = cap_s > 0 ? cap_s : 0;
}

double run_clock_now(const struct run_clock *c)
{
	return mono_s() - (c->stolen < c->cap ? c->stolen : c->cap);
}

void run_clock_account(struct run_clock *c, double asked_s, double took_s)
{
	double late = took_s - asked_s - RUN_CLOCK_SLACK_S;
	if (late > 0)
		c->stolen += late;
}

int run_clock_poll(struct run_clock *c, struct pollfd *pf, double deadline)
{
	double left = deadline - run_clock_now(c);
	double slice = left < RUN_CLOCK_SLICE_S ? left : RUN_CLOCK_SLICE_S;
	if (slice < 0)
		slice = 0;
	int ms = (int)(slice * 1000) + (slice > 0 ? 1 : 0);
	double t0 = mono_s();
	int r = poll(pf, 1, ms);
	if (r == 0)
		run_clock_account(c, ms / 1000.0, mono_s() - t0);
	return r;
}

void run_clock_nap(struct run_clock *c, double s)
{
	double t0 = mono_s();
	usleep((useconds_t)(s * 1e6));
	run_clock_account(c, s, mono_s() - t0);
}
