/* A hang costs a bounded number of verdicts (issue 21 item 5). A control
 * whose query or get sleeps (interruptibly) until the check's timeout would
 * cost one timeout per check that touches it. So every control ioctl notes,
 * in a page shared by the runner and its check processes, which controls it
 * names before it is issued (dev_ioctl is the one place); when a check times
 * out inside one, the runner reads the note, fails that check naming the
 * ioctl and the control, and records the control as hung here. From then on:
 *  - the runner's own device work (the control model, the snapshot, the
 *    restore) is bounded: an ioctl that does not return within hang_bound's
 *    seconds is interrupted (SIGALRM) and answers DEV_EHUNG, and a call the
 *    registry knows to hang is not issued again;
 *  - in a check process (hang_strict), the ioctl that hung is not issued
 *    again for that control, nor a NEXT query of it that would reach the
 *    control: the check ends as a skip naming the hang (reason class
 *    "hang"). The control's other ioctls are still asked; one that hangs as
 *    well costs one more timeout and joins the registry.
 * Uses no other room: what a NEXT query reaches comes from the order the
 * control model sets (hang_set_order). */
#ifndef V4L2C_HANG_H
#define V4L2C_HANG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* dev_ioctl's answer for a call that did not return within the bound, or
 * that the registry knows does not (never a kernel errno). */
#define DEV_EHUNG 4096
#define HANG_MAX 16	/* hung controls a run keeps */
#define HANG_IDS 64	/* control ids noted per call (an ext call's first ones) */
#define HANG_IDS_SHOWN 8	/* of them, named in a message */

/* The control ioctl in flight. */
struct hang_call {
	unsigned long req;	/* 0: none */
	uint32_t next;		/* a query's NEXT_CTRL / NEXT_COMPOUND flags; 0: an exact id */
	uint32_t n;		/* how many controls it names (an ext call's count) */
	uint32_t id[HANG_IDS];	/* the first of them (a NEXT query: the id it starts from) */
};

/* A control whose ioctl did not return. */
struct hang {
	unsigned long req;	/* the ioctl that did not return */
	uint32_t id;		/* the control; 0: not known (a NEXT query nobody could resolve) */
	uint32_t from, next;	/* id == 0: the NEXT query that did not return */
	double secs;		/* how long it was given */
	char name[32];		/* the control's name, once the model has it */
	char where[96];		/* "while building the control model", or the check */
	/* The NEXT queries that reach it (hang_set_order): from any id in
	 * [prev, id) with a NEXT flag that takes its kind. */
	bool order_known, compound;
	uint32_t prev_plain, prev_compound;
};

/* Runner, before it touches the device: the shared page (no-op if it
 * fails; then nothing is bounded or remembered). */
void hang_init(void);
/* Runner: bound each of its own ioctls to `secs` (0: unbounded), and say
 * what it is doing for the record ("while building the control model"). */
void hang_bound(double secs);
void hang_set_where(const char *where);
/* Check process: refuse every control ioctl that needs a hung control;
 * `refuse` ends the check (a skip with hang_reason's words). */
void hang_strict(void (*refuse)(const struct hang *h, const char *call));
bool hang_in_check(void);	/* hang_strict was called */

/* dev_ioctl: DEV_EHUNG when the call must not be issued: the ioctl that
 * hung, naming or reaching its control (in a check process `refuse` is
 * called instead and does not return). */
int hang_before(unsigned long req, const void *arg);
/* dev_ioctl, around the call: the note and the bound. */
void hang_ioctl_begin(unsigned long req, const void *arg);
bool hang_expired(void);	/* the bound ran out: stop retrying EINTR */
void hang_ioctl_end(bool timed_out);

/* The controls a call names: ids of QUERYCTRL, QUERY_EXT_CTRL, QUERYMENU,
 * G/S_CTRL and the G/S/TRY_EXT_CTRLS array (read without trusting its
 * pointer: checks pass bad ones on purpose). False: not a control call. */
bool hang_call_of(unsigned long req, const void *arg, struct hang_call *c);
/* Does a query from `from` with `next` flags (0: exactly `from`) reach h? */
bool hang_reaches(const struct hang *h, uint32_t from, uint32_t next);
/* The hung control a call would reach with the ioctl that hung, or NULL
 * (its other ioctls are asked: the model learns its name by QUERY_EXT_CTRL
 * when QUERYCTRL sleeps). */
const struct hang *hang_blocking(const struct hang_call *c);

/* The registry. */
size_t hang_count(void);
struct hang *hang_at(size_t i);
const struct hang *hang_find(uint32_t id);	/* a hung control by id */
/* Its value cannot be read or set back: a G/S/TRY ioctl of it hung (a
 * control whose query hangs still has its value saved and restored). */
bool hang_blocks_values(uint32_t id);
struct hang *hang_add(unsigned long req, uint32_t id, double secs, const char *where);
/* Forget the entries past the first n (what an abandoned try added). */
void hang_truncate(size_t n);
/* Read and forget the call a killed check process left in flight. */
bool hang_take_call(struct hang_call *c);
/* A call naming several controls did not return: which one? Ask the same
 * ioctl of each named control alone, in order, through `one` (bounded by
 * the caller: DEV_EHUNG when it did not return, and then the control has
 * joined the registry, hang_ioctl_end), until one does not return. That
 * one is only pinned if the device still answers: the next named control
 * (or the one before) is asked once more; when it does not return either,
 * the device hangs as a whole, not one control, and what the tries added
 * to the registry is forgotten. Returns the index in c->id of the control
 * pinned, or -1 (none hung alone: the call hangs only as a whole, or the
 * device does). Costs at most two bounded waits. */
int hang_pin(const struct hang_call *c, int (*one)(uint32_t id, void *arg), void *arg);

/* "VIDIOC_G_EXT_CTRLS of 0x00980900, 0x00980901", "VIDIOC_QUERYCTRL with
 * NEXT_CTRL after 0x00980001": what a call names. */
const char *hang_call_what(const struct hang_call *c, char *buf, size_t len);
/* "VIDIOC_QUERYCTRL of 0x00980900 'Brightness'", "VIDIOC_QUERYCTRL with
 * NEXT_CTRL after 0x00980001" */
const char *hang_what(const struct hang *h, char *buf, size_t len);
/* "VIDIOC_QUERYCTRL of 0x00980900 'Brightness' hangs (did not return in
 * 30 s, while building the control model)": a skip's reason. */
const char *hang_reason(const struct hang *h, char *buf, size_t len);
/* Where wedge's probe may start a NEXT_CTRL query without reaching a
 * hung control. */
uint32_t hang_probe_start(void);
/* Tests: forget every entry. */
void hang_reset(void);
#endif
