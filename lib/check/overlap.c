#include "check/overlap.h"
#include "check/verdict.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define ADD(x, v) __atomic_add_fetch(&(x), (v), __ATOMIC_SEQ_CST)

void ovl_init(struct ovl_board *b)
{
	memset(b, 0, sizeof(*b));
}

int ovl_join(struct ovl_board *b, unsigned role, unsigned watch)
{
	int i = __atomic_fetch_add(&b->n, 1, __ATOMIC_SEQ_CST);
	if (i >= OVL_PARTIES)
		return -1;
	b->p[i].role = role;
	b->p[i].watch = watch;
	return i;
}

/* Own mark first, then the look at the others: two parties that start
 * together on two CPUs each see the other in flight at worst, never
 * neither. A watched ioctl is counted once however many start during it
 * (the claim), so the goal needs that many distinct preemptions, not one
 * long one. */
void ovl_begin(struct ovl_board *b, int me)
{
	ADD(b->p[me].seq, 1);
	ADD(b->ops, 1);
	int n = LOAD(b->n);
	if (n > OVL_PARTIES)
		n = OVL_PARTIES;
	for (int j = 0; j < n; j++) {
		if (j == me || !(b->p[me].watch & b->p[j].role))
			continue;
		uint64_t s = LOAD(b->p[j].seq);
		if (!(s & 1))
			continue;
		ADD(b->pairs, 1);
		uint64_t was = LOAD(b->p[j].claimed);
		if (was != s && __atomic_compare_exchange_n(&b->p[j].claimed, &was, s, false, __ATOMIC_SEQ_CST,
							    __ATOMIC_SEQ_CST))
			ADD(b->overlapped, 1);
	}
}

void ovl_end(struct ovl_board *b, int me)
{
	ADD(b->p[me].seq, 1);
}

void ovl_problem(struct ovl_board *b)
{
	ADD(b->problems, 1);
}

bool ovl_stopped(const struct ovl_board *b)
{
	return __atomic_load_n(&b->stop, __ATOMIC_ACQUIRE);
}

void ovl_stop(struct ovl_board *b)
{
	__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
}

struct ovl_count ovl_read(const struct ovl_board *b)
{
	return (struct ovl_count){ .ops = LOAD(b->ops), .pairs = LOAD(b->pairs), .overlapped = LOAD(b->overlapped),
				   .problems = LOAD(b->problems) };
}

enum ovl_state ovl_decide(const struct ovl_goal *g, const struct ovl_count *c, double elapsed_s)
{
	if (c->problems)
		return OVL_FOUND;
	if (c->overlapped >= g->overlapped && c->ops >= g->min_ops)
		return OVL_ENOUGH;
	if (elapsed_s >= g->cap_s)
		return OVL_INCONCLUSIVE;
	return OVL_RUNNING;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The judge sleeps between looks: on one CPU its wake-ups are more chances
 * for a worker to be preempted inside an ioctl, not fewer. */
enum ovl_state ovl_watch(struct ovl_board *b, const struct ovl_goal *g, double *elapsed_s)
{
	double t0 = now_s(), t = 0;
	enum ovl_state st;
	for (;;) {
		struct ovl_count c = ovl_read(b);
		t = now_s() - t0;
		st = ovl_decide(g, &c, t);
		if (st != OVL_RUNNING)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	ovl_stop(b);
	if (elapsed_s)
		*elapsed_s = t;
	return st;
}

void ovl_describe(const struct ovl_count *c, double elapsed_s, const char *watched, const char *by, char *buf,
		  size_t len)
{
	snprintf(buf, len, "%llu %s overlapped by %s (%llu pairs), %llu ioctls in %.2f s",
		 (unsigned long long)c->overlapped, watched, by, (unsigned long long)c->pairs,
		 (unsigned long long)c->ops, elapsed_s);
}

void ovl_conclude(const struct ovl_board *b, const struct ovl_goal *g, enum ovl_state st, double elapsed_s,
		  const char *watched, const char *by)
{
	struct ovl_count c = ovl_read(b);
	char s[200];
	ovl_describe(&c, elapsed_s, watched, by, s, sizeof(s));
	v_measure("overlapped", (double)c.overlapped, "ioctls");
	v_measure("pairs", (double)c.pairs, "pairs");
	v_measure("ioctls", (double)c.ops, "ops");
	if (st == OVL_INCONCLUSIVE)
		v_skip("inconclusive: %s; the check needs %llu overlapped and %llu ioctls before its %.0f s cap", s,
		       (unsigned long long)g->overlapped, (unsigned long long)g->min_ops, g->cap_s);
	v_info("%s", s);
}
