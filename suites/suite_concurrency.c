/* Concurrency: threads and processes, each with its own handle, setting
 * and getting the same and different controls until enough of their ioctls
 * were seen overlapping (check/overlap.h: a reader's ioctl that started
 * while a writer's was in flight), never for a set time: a run that reaches
 * the time cap first is an inconclusive skip with its counts. Every
 * ioctl must succeed (nothing here has a documented error), every value
 * read must be one that was written (no torn 64-bit or payload values),
 * events carry written values in sequence order, and the final state is
 * consistent. Checks use ck_assert only in the main thread: workers record
 * what they saw and the main thread judges. The rules are those of the
 * value paths under load: SC-15 (G returns what S stored), EX-21 (all 64
 * bits), AR-3 (whole arrays), EV-3/EV-4 (events). */
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/events.h"
#include "ctrl/ext_ctrls.h"
#include "check/overlap.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* When a run has seen enough (check/overlap.h). A count of ioctls done says
 * nothing about a race: on one CPU a timeslice holds hundreds of control
 * ioctls of one thread, and whether any of them is preempted inside the
 * driver is the scheduler's luck (issue 40: a torn 64-bit write went unseen
 * on a busy host). What exposes a torn write is a read that starts while
 * the write is in flight, so the runs count those and end when GOAL_OVERLAPS
 * distinct writes were overlapped, each a separate preemption (or block)
 * inside a writer's ioctl. GOAL_MIN_OPS keeps a run on many CPUs, where
 * nearly every ioctl overlaps, from ending after a handful. CAP_S is a
 * safety net for a device that never lets two ioctls overlap: the run is
 * then inconclusive, never a pass. Measured on the virtual board (one
 * vCPU, TCG, vivid): docs/speed.md. */
#define GOAL_OVERLAPS 24
#define GOAL_MIN_OPS 256
#define CAP_S 10.0
#define MAX_VALS 4

static const struct ovl_goal goal = { .overlapped = GOAL_OVERLAPS, .min_ops = GOAL_MIN_OPS, .cap_s = CAP_S };

/* What one worker saw. */
struct report {
	unsigned long ops;
	int err;			/* first unexpected errno */
	char what[160];			/* first problem */
	unsigned long bad;		/* values read that were never written */
};

static void note(struct report *r, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(struct report *r, int err, const char *fmt, ...)
{
	if (r->what[0])
		return;
	r->err = err;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->what, sizeof(r->what), fmt, ap);
	va_end(ap);
}

/* The set of values writers use; readers accept these and the start value. */
struct valset {
	const struct ctrl *c;
	struct ctrl_val v[MAX_VALS + 1];	/* [MAX_VALS]: the value before the run */
	int n;
};

static bool valset_has(const struct valset *vs, const struct ctrl_val *x)
{
	for (int i = 0; i < vs->n; i++)
		if (ctrl_val_equal(vs->c, &vs->v[i], x))
			return true;
	return ctrl_val_equal(vs->c, &vs->v[MAX_VALS], x);
}

static void valset_free(struct valset *vs)
{
	for (int i = 0; i <= MAX_VALS; i++)
		ctrl_val_free(&vs->v[i]);
}

/* Values that differ in every byte where possible: for INTEGER64 the
 * 0x5555.../0xaaaa... patterns, so a value torn between two writes (one
 * 32-bit half of each) is never one of them. */
static bool valset_build(const struct check_ctx *cx, const struct ctrl *c, struct valset *vs)
{
	memset(vs, 0, sizeof(*vs));
	vs->c = c;
	if (ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &vs->v[MAX_VALS]))
		return false;
	if (ctrl_has_payload(&c->q)) {
		uint32_t elems = payload_elems(c, vs->v[MAX_VALS].size);
		for (unsigned k = 0; k < 2; k++)
			if (!payload_pattern(c, k, elems, &vs->v[vs->n++]))
				return false;
		return !ctrl_val_equal(c, &vs->v[0], &vs->v[1]);
	}
	const struct v4l2_query_ext_ctrl *q = &c->q;
	int64_t cand[4];
	int nc = 0;
	if (q->type == V4L2_CTRL_TYPE_INTEGER64) {
		cand[nc++] = ctrl_expected_scalar(q, (int64_t)0x5555555555555555ll);
		cand[nc++] = ctrl_expected_scalar(q, (int64_t)0xaaaaaaaaaaaaaaaaull);
		cand[nc++] = q->minimum;
		cand[nc++] = q->maximum;
	} else {
		cand[nc++] = ctrl_middle_value(c);
		int64_t o;
		if (ctrl_other_value(c, cand[0], &o))
			cand[nc++] = o;
		if (nc == 2 && ctrl_other_value(c, o, &o) && o != cand[0])
			cand[nc++] = o;
	}
	for (int i = 0; i < nc && vs->n < 2 + (q->type != V4L2_CTRL_TYPE_INTEGER64); i++) {
		bool dup = !ctrl_value_valid(c, cand[i]);
		for (int j = 0; j < vs->n; j++)
			dup |= vs->v[j].v == cand[i];
		if (!dup)
			vs->v[vs->n++].v = cand[i];
	}
	return vs->n >= 2;
}

static void fmt_val(const struct valset *vs, const struct ctrl_val *x, char *buf, size_t len)
{
	ctrl_val_str(vs->c, x, buf, len);
}

/* ---------- one control, many threads (SC-15, EX-21, AR-3) ---------- */

struct worker {
	const struct dev *proto;
	const struct valset *vs;
	bool writer, old_path;
	int id;
	struct ovl_board *ob;		/* the run's evidence; the loop ends when it says stop */
	int party;			/* this worker on ob */
	struct report r;
	int last;			/* writers: index of the last value written */
	/* Where set, every worker opens its handle first and waits here for
	 * the others: a worker's 2000 ioctls take a few milliseconds, less
	 * than starting a thread and opening the device, so without a common
	 * start the workers would mostly run one after the other. */
	pthread_barrier_t *start;
	/* Work through proto itself instead of a handle of its own (an M2M
	 * context's only handle, shared by threads). */
	bool same_handle;
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	const struct ctrl *c = w->vs->c;
	struct dev own;
	const struct dev *d = w->same_handle ? w->proto : &own;
	if (!w->same_handle && dev_reopen(w->proto, &own)) {
		note(&w->r, ENODEV, "cannot open the device");
		ovl_problem(w->ob);
		if (w->start)
			pthread_barrier_wait(w->start);
		return NULL;
	}
	if (w->start)
		pthread_barrier_wait(w->start);
	/* Odd workers go through the old ioctls (where the control has them),
	 * even ones through the extended. A writer steps through the values
	 * from its own starting point, so that each write changes the value
	 * (a driver that stores only changes has a torn window each time). */
	bool old = ctrl_is_scalar_int32(&c->q) && w->old_path && (w->id & 1);
	while (!ovl_stopped(w->ob)) {
		int e;
		if (w->writer) {
			int i = (int)(((unsigned)w->id + w->r.ops) % (unsigned)w->vs->n);
			struct ctrl_val v;
			int32_t v32 = (int32_t)w->vs->v[i].v;
			if (!old)
				ctrl_val_copy(c, &v, &w->vs->v[i]);
			ovl_begin(w->ob, w->party);
			e = old ? ctrl_set_old(d, c->q.id, &v32) : ctrl_set(d, c, &v);
			ovl_end(w->ob, w->party);
			if (!old)
				ctrl_val_free(&v);
			if (e) {
				note(&w->r, e, "%s of value %d gave %s", old ? "S_CTRL" : "S_EXT_CTRLS", i, errno_name(e));
				ovl_problem(w->ob);
			} else {
				w->last = i;
			}
		} else {
			struct ctrl_val got = { 0 };
			int32_t v32 = 0;
			ovl_begin(w->ob, w->party);
			e = old ? ctrl_get_old(d, c->q.id, &v32) : ctrl_get(d, c, V4L2_CTRL_WHICH_CUR_VAL, &got);
			ovl_end(w->ob, w->party);
			if (old)
				got.v = v32;
			if (e) {
				note(&w->r, e, "%s gave %s", old ? "G_CTRL" : "G_EXT_CTRLS", errno_name(e));
				ovl_problem(w->ob);
			} else if (!valset_has(w->vs, &got)) {
				char s[120];
				fmt_val(w->vs, &got, s, sizeof(s));
				w->r.bad++;
				note(&w->r, 0, "%s read %s, a value nobody wrote (torn?)", old ? "G_CTRL" : "G_EXT_CTRLS", s);
				ovl_problem(w->ob);
			}
			ctrl_val_free(&got);
		}
		w->r.ops++;
	}
	if (!w->same_handle)
		dev_close(&own);
	return NULL;
}

/* A fault any worker saw fails the check, whatever the overlaps: a torn
 * value is its own evidence. */
static void judge(struct worker *ws, int n, const char *rule, const struct ovl_board *ob, double el)
{
	char s[200];
	struct ovl_count c = ovl_read(ob);
	ovl_describe(&c, el, "writes", "other ioctls", s, sizeof(s));
	for (int i = 0; i < n; i++)
		if (ws[i].r.what[0])
			ck_abort_msg("%s %d: expected every ioctl to succeed and every value read to be one written, got: %s (%lu such reads; %s) (%s)",
				     ws[i].writer ? "writer" : "reader", ws[i].id, ws[i].r.what, ws[i].r.bad, s, rule);
}

/* nw writers and nr readers, each reader's ioctls counted against the
 * writers' in flight, until the goal, a fault or the cap. */
static enum ovl_state run_workers(const struct check_ctx *cx, const struct valset *vs, int nw, int nr, bool old_path,
				  struct worker *ws, struct ovl_board *ob, double *el)
{
	pthread_t th[16];
	pthread_barrier_t start;
	ck_assert(pthread_barrier_init(&start, NULL, (unsigned)(nw + nr + 1)) == 0);
	ovl_init(ob);
	for (int i = 0; i < nw + nr; i++) {
		bool wr = i < nw;
		ws[i] = (struct worker){ .proto = cx->dev, .vs = vs, .writer = wr, .old_path = old_path, .id = i, .ob = ob,
					 .party = ovl_join(ob, wr ? OVL_WRITER : OVL_READER, wr ? 0 : OVL_WRITER),
					 .last = -1, .start = &start };
		ck_assert(pthread_create(&th[i], NULL, worker_fn, &ws[i]) == 0);
	}
	/* The judge's clock starts with the workers, their handles open. */
	pthread_barrier_wait(&start);
	enum ovl_state st = ovl_watch(ob, &goal, el);
	for (int i = 0; i < nw + nr; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	return st;
}

static void final_consistent(const struct check_ctx *cx, const struct valset *vs)
{
	const struct ctrl *c = vs->c;
	struct ctrl_val a = { 0 };
	char s[120];
	expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &a), "G_EXT_CTRLS after the run");
	fmt_val(vs, &a, s, sizeof(s));
	ck_assert_msg(valset_has(vs, &a), "expected the final value to be one of the values written, got %s", s);
	if (ctrl_is_scalar_int32(&c->q)) {
		int32_t v = 0;
		expect_ok(ctrl_get_old(cx->dev, c->q.id, &v), "G_CTRL after the run");
		expect_eq(v, (int32_t)a.v, "G_CTRL and G_EXT_CTRLS after the run (SC-15)");
	}
	ctrl_val_free(&a);
}

static void torn(const struct check_ctx *cx)
{
	struct valset vs;
	if (!valset_build(cx, cx->ctrl, &vs))
		v_skip("no two distinct values to write");
	struct worker ws[6];
	struct ovl_board ob;
	double el;
	enum ovl_state st = run_workers(cx, &vs, 3, 3, false, ws, &ob, &el);
	judge(ws, 6, cx->ctrl->q.type == V4L2_CTRL_TYPE_INTEGER64 ? "EX-21" : "AR-3", &ob, el);
	final_consistent(cx, &vs);
	valset_free(&vs);
	ovl_conclude(&ob, &goal, st, el, "S_EXT_CTRLS", "G_EXT_CTRLS");
}

static void same_control(const struct check_ctx *cx)
{
	const struct ctrl *pick[1];
	const struct ctrl *c = NULL;
	for (size_t i = 0; i < cx->model->n && !c; i++)
		if (ext_plain(&cx->model->c[i]) && cx->model->c[i].q.type == V4L2_CTRL_TYPE_INTEGER)
			c = &cx->model->c[i];
	if (!c && ext_pick_plain(cx->model, 0, NULL, 0, pick, 1))
		c = pick[0];
	if (!c)
		v_skip("no control whose value can be changed");
	struct valset vs;
	if (!valset_build(cx, c, &vs))
		v_skip("%s has a single value", c->q.name);
	struct worker ws[6];
	struct ovl_board ob;
	double el;
	enum ovl_state st = run_workers(cx, &vs, 3, 3, true, ws, &ob, &el);
	v_info("%s, values mixed through S_CTRL/S_EXT_CTRLS and G_CTRL/G_EXT_CTRLS", c->q.name);
	judge(ws, 6, "SC-15", &ob, el);
	final_consistent(cx, &vs);
	valset_free(&vs);
	ovl_conclude(&ob, &goal, st, el, "writes", "reads");
}

/* ---------- different controls, one thread each ---------- */

struct owner {
	const struct dev *proto;
	const struct ctrl *c;
	int64_t vals[2];
	struct ovl_board *ob;
	int party;
	pthread_barrier_t *start;
	struct report r;
	int64_t last;
	bool wrote;
};

static void *owner_fn(void *arg)
{
	struct owner *o = arg;
	struct dev d;
	if (dev_reopen(o->proto, &d)) {
		note(&o->r, ENODEV, "cannot open the device");
		ovl_problem(o->ob);
		pthread_barrier_wait(o->start);
		return NULL;
	}
	pthread_barrier_wait(o->start);
	for (unsigned k = 0; !ovl_stopped(o->ob); k++) {
		int64_t v = o->vals[k & 1], got = 0;
		ovl_begin(o->ob, o->party);
		int e = ctrl_set_scalar(&d, o->c, &v);
		ovl_end(o->ob, o->party);
		if (e) {
			note(&o->r, e, "setting %s to %lld gave %s", o->c->q.name, (long long)o->vals[k & 1], errno_name(e));
			ovl_problem(o->ob);
			break;
		}
		o->last = v;
		o->wrote = true;
		ovl_begin(o->ob, o->party);
		e = ctrl_get_scalar(&d, o->c, &got);
		ovl_end(o->ob, o->party);
		if (e) {
			note(&o->r, e, "G of %s gave %s", o->c->q.name, errno_name(e));
			ovl_problem(o->ob);
		} else if (got != v) {
			o->r.bad++;
			note(&o->r, 0, "%s read %lld right after this thread (its only writer) set %lld", o->c->q.name, (long long)got,
			     (long long)v);
			ovl_problem(o->ob);
		}
		o->r.ops += 2;
	}
	/* End on the value the control did not have at the start: a context
	 * that wrongly shares the threads' values (PE-2) then shows it every
	 * time. Alternating, a thread ends on the start value half the time,
	 * and with all of them so a shared handler passed (the flake hunt,
	 * m2m-shared-handler, 1 round of 5). */
	if (o->wrote && o->last == o->vals[0] && !o->r.what[0]) {
		int64_t v = o->vals[1];
		int e = ctrl_set_scalar(&d, o->c, &v);
		if (e)
			note(&o->r, e, "setting %s to %lld gave %s", o->c->q.name, (long long)o->vals[1], errno_name(e));
		else
			o->last = v;
	}
	dev_close(&d);
	return NULL;
}

/* Each thread its own handle and control. Where values are the device's
 * (PE-1) the check's handle then reads what each thread set last; on a
 * memory-to-memory node every thread's handle is a context of its own
 * (PE-2), and the check's handle, another context, reads what it had. */
static void different_controls(const struct check_ctx *cx)
{
	const struct ctrl *pick[6];
	size_t n = ext_pick_plain(cx->model, 0, NULL, 0, pick, 6);
	if (n < 2)
		v_skip("fewer than two controls whose value can be changed");
	struct owner os[6];
	pthread_t th[6];
	/* Each thread's ioctls count against the others' in flight: cross-talk
	 * needs two controls' ioctls inside the driver at once. */
	struct ovl_board ob;
	ovl_init(&ob);
	pthread_barrier_t start;
	ck_assert(pthread_barrier_init(&start, NULL, (unsigned)n + 1) == 0);
	for (size_t i = 0; i < n; i++) {
		os[i] = (struct owner){ .proto = cx->dev, .c = pick[i], .ob = &ob,
					.party = ovl_join(&ob, OVL_WRITER, OVL_WRITER), .start = &start };
		ctrl_get_scalar(cx->dev, pick[i], &os[i].vals[0]);
		ck_assert(ctrl_other_value(pick[i], os[i].vals[0], &os[i].vals[1]));
		ck_assert(pthread_create(&th[i], NULL, owner_fn, &os[i]) == 0);
	}
	pthread_barrier_wait(&start);
	double el;
	enum ovl_state st = ovl_watch(&ob, &goal, &el);
	for (size_t i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	for (size_t i = 0; i < n; i++) {
		if (os[i].r.what[0])
			ck_abort_msg("expected each thread to read back what it set on its own control, got: %s (SC-15)", os[i].r.what);
	}
	bool m2m = dev_is_m2m(cx->dev);
	for (size_t i = 0; i < n; i++) {
		int64_t got = 0;
		expect_ok(ctrl_get_scalar(cx->dev, pick[i], &got), "G of %s after the run", pick[i]->q.name);
		if (m2m)
			expect_eq(got, os[i].vals[0], "%s after the run on an M2M node: this context's own value, untouched by "
				  "the threads' contexts (PE-2)", pick[i]->q.name);
		else if (os[i].wrote)
			expect_eq(got, os[i].last, "%s after the run: the last value its thread set (SC-15)", pick[i]->q.name);
	}
	v_info("%zu threads, one control each", n);
	ovl_conclude(&ob, &goal, st, el, "ioctls", "another control's");
}

/* The control several writers fight over: an integer if there is one (the
 * most values to tell apart), else any plain control; ends the check as
 * 'skip' when nothing can change. */
static const struct ctrl *pick_shared_control(const struct check_ctx *cx, struct valset *vs)
{
	const struct ctrl *c = NULL;
	for (size_t i = 0; i < cx->model->n && !c; i++)
		if (ext_plain(&cx->model->c[i]) && cx->model->c[i].q.type == V4L2_CTRL_TYPE_INTEGER)
			c = &cx->model->c[i];
	const struct ctrl *pick[1];
	if (!c && ext_pick_plain(cx->model, 0, NULL, 0, pick, 1))
		c = pick[0];
	if (!c)
		v_skip("no control whose value can be changed");
	if (!valset_build(cx, c, vs))
		v_skip("%s has a single value", c->q.name);
	return c;
}

/* ---------- processes ---------- */

struct shared {
	struct ovl_board ob;		/* in shared memory: the processes' marks */
	struct report r[8];
	int last[8];
};

static void processes(const struct check_ctx *cx)
{
	struct valset vs;
	pick_shared_control(cx, &vs);
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	ovl_init(&sh->ob);
	const int np = 4;
	pid_t pids[4];
	int party[4];
	for (int p = 0; p < np; p++)
		party[p] = ovl_join(&sh->ob, p < 2 ? OVL_WRITER : OVL_READER, p < 2 ? 0 : OVL_WRITER);
	for (int p = 0; p < np; p++) {
		pids[p] = fork();
		ck_assert(pids[p] >= 0);
		if (pids[p] == 0) {
			/* Two writers and two readers, one thread each. */
			struct worker w = { .proto = cx->dev, .vs = &vs, .writer = p < 2, .old_path = true, .id = p,
					    .ob = &sh->ob, .party = party[p], .last = -1 };
			worker_fn(&w);
			sh->r[p] = w.r;
			sh->last[p] = w.last;
			_exit(0);
		}
	}
	double el;
	enum ovl_state ost = ovl_watch(&sh->ob, &goal, &el);
	for (int p = 0; p < np; p++) {
		int st = 0;
		waitpid(pids[p], &st, 0);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "worker process %d died (status 0x%x)", p, st);
	}
	for (int p = 0; p < np; p++) {
		if (sh->r[p].what[0])
			ck_abort_msg("process %d (%s): expected every ioctl to succeed and every value read to be one written, got: %s (SC-15)",
				     p, p < 2 ? "writer" : "reader", sh->r[p].what);
	}
	final_consistent(cx, &vs);
	struct ovl_board ob = sh->ob;
	munmap(sh, sizeof(*sh));
	valset_free(&vs);
	ovl_conclude(&ob, &goal, ost, el, "writes", "another process's reads");
}

/* ---------- events under load ---------- */

/* The writers' changes reach the subscriber's handle: where values are the
 * device's (PE-1) each writer has a handle of its own; on a memory-to-memory
 * node, whose handles are contexts of their own (PE-2), they write through
 * the subscriber's handle, which hears them with ALLOW_FEEDBACK (EV-4). */
static void events_load(const struct check_ctx *cx)
{
	struct valset vs;
	const struct ctrl *c = pick_shared_control(cx, &vs);
	bool m2m = dev_is_m2m(cx->dev);
	expect_ok(ev_subscribe(cx->dev, c->q.id, m2m ? V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK : 0), "SUBSCRIBE %s", c->q.name);
	struct worker ws[2];
	pthread_t th[2];
	/* The evidence: one writer's S starting while the other's is in flight,
	 * the moment two changes race for their events' order. */
	struct ovl_board ob;
	ovl_init(&ob);
	for (int i = 0; i < 2; i++) {
		ws[i] = (struct worker){ .proto = cx->dev, .vs = &vs, .writer = true, .old_path = true, .id = i, .ob = &ob,
					 .party = ovl_join(&ob, OVL_WRITER, OVL_WRITER), .last = -1, .same_handle = m2m };
		ck_assert(pthread_create(&th[i], NULL, worker_fn, &ws[i]) == 0);
	}
	unsigned long nev = 0;
	uint32_t last_seq = 0;
	bool have_seq = false;
	char problem[200] = "";
	struct v4l2_event ev, last_ev;
	memset(&last_ev, 0, sizeof(last_ev));
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	enum ovl_state st;
	double el;
	/* The subscriber is the judge: it reads events between its looks at
	 * the board (ovl_watch's loop, with DQEVENT for its sleep). */
	for (;;) {
		struct ovl_count oc = ovl_read(&ob);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		el = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		st = ovl_decide(&goal, &oc, el);
		if (st != OVL_RUNNING || problem[0])
			break;
		int e = ev_wait(cx->dev, 5, &ev);
		if (e == ETIMEDOUT)
			continue;
		if (e) {
			snprintf(problem, sizeof(problem), "DQEVENT gave %s", errno_name(e));
			break;
		}
		nev++;
		struct ctrl_val x = { .v = c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? ev.u.ctrl.value64 : ev.u.ctrl.value };
		if (ev.id != c->q.id || !(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE) || !valset_has(&vs, &x)) {
			char s[200];
			snprintf(problem, sizeof(problem), "unexpected event %s", ev_str(&ev, s, sizeof(s)));
			break;
		}
		if (have_seq && ev.sequence <= last_seq) {
			snprintf(problem, sizeof(problem), "sequence %u after %u", ev.sequence, last_seq);
			break;
		}
		last_seq = ev.sequence;
		have_seq = true;
		last_ev = ev;
	}
	ovl_stop(&ob);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	while (ev_dequeue(cx->dev, &ev) == 0) {
		last_ev = ev;
		nev++;
	}
	if (problem[0])
		ck_abort_msg("events under load: expected CH_VALUE events carrying written values in increasing sequence, got %s (EV-3, EV-4)",
			     problem);
	judge(ws, 2, "EV-4", &ob, el);
	ck_assert_msg(nev > 0, "expected events while two threads changed %s, got none (EV-4)", c->q.name);
	int64_t cur = 0;
	expect_ok(ctrl_get_scalar(cx->dev, c, &cur), "G after the run");
	int64_t evv = c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? last_ev.u.ctrl.value64 : last_ev.u.ctrl.value;
	expect_eq(evv, c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? cur : (int32_t)cur,
		  "the last event's value must be the final value: events and state agree (EV-4)");
	v_measure("events", (double)nev, "events");
	valset_free(&vs);
	ovl_conclude(&ob, &goal, st, el, "writes", "the other writer's");
}

/* ---------- applicability ---------- */

static bool torn_int64_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return c->q.type == V4L2_CTRL_TYPE_INTEGER64 && !ctrl_is_compound(&c->q) && ctrl_settable_scalar(c);
}

static bool torn_payload_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!ext_payload_rw(c))
		return false;
	if (payload_can_generate(c))
		return true;
	*why = "no generator for this compound type's values";
	return false;
}

static const struct check_def checks[] = {
	{ "conc/torn-int64", "EX-21", "3 writer and 3 reader threads on one 64-bit control (0x5555.../0xaaaa...): every value read is whole",
	  CHECK_PER_CONTROL, torn, torn_int64_applies, NULL, 20, .needs = NEEDS_EXT, .own_process = true },
	{ "conc/torn-payload", "AR-3", "3 writer and 3 reader threads on one string/array control: every value read is one whole value written",
	  CHECK_PER_CONTROL, torn, torn_payload_applies, NULL, 20, .needs = NEEDS_EXT, .own_process = true },
	{ "conc/same-control", "SC-15", "3 writer and 3 reader threads on one control through old and extended ioctls: no errors, only written values",
	  CHECK_PER_DEVICE, same_control, NULL, NULL, 20, .needs = NEEDS_EXT, .own_process = true },
	{ "conc/different-controls", "SC-15", "one thread per control setting and reading back its own control: no cross-talk, last write wins",
	  CHECK_PER_DEVICE, different_controls, NULL, NULL, 20, .needs = NEEDS_EXT, .own_process = true },
	{ "conc/processes", "SC-15", "4 processes setting and getting one control: no errors, only written values, consistent end state",
	  CHECK_PER_DEVICE, processes, NULL, NULL, 20, .needs = NEEDS_EXT, .own_process = true },
	{ "conc/events-under-load", "EV-4", "a subscriber during concurrent writes gets written values in sequence order; the last event is the final value",
	  CHECK_PER_DEVICE, events_load, NULL, NULL, 20, .needs = NEEDS_EXT | NEEDS_EVENTS, .own_process = true },
};
SUITE(suite_concurrency, "conc", "Concurrency", checks);
