/* Evidence for the concurrency checks (issue 40): a race check is only as
 * good as the overlaps it saw. Each worker (thread or process) marks the
 * start and the return of every ioctl on a shared board; an ioctl that
 * starts while another party's ioctl is in flight (started, not returned)
 * is an overlapping pair. On a single CPU two threads never run at the same
 * time, so a pair means the in-flight ioctl was preempted or blocked inside
 * it, which is the moment a torn write is visible. The checks run until
 * enough ioctls of the watched kind were overlapped (the goal), not for a
 * set time; the time cap only ends a run that never got there, and such a
 * run is inconclusive, never a pass.
 *
 * The marks are sequence counters (odd while in flight), so a board works
 * between threads and, in MAP_SHARED memory, between processes. A mark is
 * taken in user space just around the ioctl: an ioctl preempted on its way
 * back to user space still counts as in flight, as it does for its caller. */
#ifndef V4L2C_OVERLAP_H
#define V4L2C_OVERLAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OVL_PARTIES 16

/* What a party's ioctls are, and which of them another party watches. */
enum { OVL_WRITER = 1u << 0, OVL_READER = 1u << 1, OVL_ANY = OVL_WRITER | OVL_READER };

struct ovl_party {
	unsigned role;		/* OVL_WRITER or OVL_READER */
	unsigned watch;		/* roles whose in-flight ioctls this party's ioctls count against */
	uint64_t seq;		/* odd while this party's ioctl is in flight */
	uint64_t claimed;	/* the in-flight seq last counted as overlapped */
};

/* All counters are updated atomically; read them with ovl_read(). */
struct ovl_board {
	int n;
	int stop;		/* set by ovl_watch: the workers end their loops */
	uint64_t problems;	/* a worker saw a fault: the run can end at once */
	uint64_t ops;		/* ioctls started */
	uint64_t pairs;		/* (ioctl started, watched ioctl in flight) pairs */
	uint64_t overlapped;	/* distinct watched ioctls that some ioctl started during */
	struct ovl_party p[OVL_PARTIES];
};

struct ovl_count {
	uint64_t ops, pairs, overlapped, problems;
};

/* When a run may end: `overlapped` distinct watched ioctls overlapped and
 * at least `min_ops` ioctls in all; `cap_s` seconds at most (then
 * inconclusive). */
struct ovl_goal {
	uint64_t overlapped;
	uint64_t min_ops;
	double cap_s;
};

enum ovl_state {
	OVL_RUNNING,		/* not yet decided */
	OVL_FOUND,		/* a worker saw a fault: its evidence decides */
	OVL_ENOUGH,		/* the goal is met: a clean run is a pass */
	OVL_INCONCLUSIVE,	/* the cap came first: a clean run is a skip */
};

void ovl_init(struct ovl_board *b);
/* A new party of `role` watching `watch`; its index, or -1 when full. */
int ovl_join(struct ovl_board *b, unsigned role, unsigned watch);
/* Just before party me's ioctl, and just after it returns. */
void ovl_begin(struct ovl_board *b, int me);
void ovl_end(struct ovl_board *b, int me);
/* A worker saw a fault (an error, a value nobody wrote). */
void ovl_problem(struct ovl_board *b);
bool ovl_stopped(const struct ovl_board *b);
void ovl_stop(struct ovl_board *b);
struct ovl_count ovl_read(const struct ovl_board *b);

/* The decision from the counts and the time so far (pure). */
enum ovl_state ovl_decide(const struct ovl_goal *g, const struct ovl_count *c, double elapsed_s);

/* The judge's side of a run, while the workers loop until ovl_stopped():
 * polls the board (every millisecond) until ovl_decide ends the run, tells
 * the workers to stop, and returns the decision (and the time taken). */
enum ovl_state ovl_watch(struct ovl_board *b, const struct ovl_goal *g, double *elapsed_s);

/* "31 S_EXT_CTRLS overlapped by G_EXT_CTRLS (2208 pairs), 40211 ioctls in
 * 0.42 s" */
void ovl_describe(const struct ovl_count *c, double elapsed_s, const char *watched, const char *by, char *buf,
		  size_t len);

/* A check's verdict from its run, once the workers ended and the check found
 * no fault: records the figures (measurements "overlapped", "pairs",
 * "ioctls") and a note, and ends the check as an inconclusive skip, with the
 * counts, when the cap came before the goal (st OVL_INCONCLUSIVE). */
void ovl_conclude(const struct ovl_board *b, const struct ovl_goal *g, enum ovl_state st, double elapsed_s,
		  const char *watched, const char *by);
#endif
