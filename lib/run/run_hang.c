/* The runner's side of a control whose ioctl hangs (see run_hang.h). */
#include "run/run_hang.h"
#include "check/run_opts.h"
#include "check/verdict.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *run_hang_skip_reason(uint32_t id)
{
	/* One string per control, kept for the run (instances point at it). */
	static struct { uint32_t id; char *why; } known[HANG_MAX];
	static size_t n_known;
	const struct hang *h = hang_find(id);
	if (!h)
		return NULL;
	for (size_t i = 0; i < n_known; i++)
		if (known[i].id == id)
			return known[i].why;
	char r[400], why[460];
	snprintf(why, sizeof(why), "not run: %s", hang_reason(h, r, sizeof(r)));
	if (n_known == HANG_MAX)
		return strdup(why);
	known[n_known].id = id;
	return known[n_known++].why = strdup(why);
}

/* The same ioctl of one control alone, of the value it has (S and TRY
 * leave the device as found), CUR_VAL: hang_pin's `one`. */
struct pin_ctx {
	const struct dev *d;
	const struct ctrl_model *m;
	unsigned long req;
};

static int pin_one(uint32_t id, void *arg)
{
	const struct pin_ctx *p = arg;
	const struct ctrl *c = model_find(p->m, id);
	if (!c)
		return 0;	/* not the device's: it answers EINVAL at once */
	struct ctrl_val v = { 0 };
	ctrl_val_init(c, &v);
	int e = ctrl_get(p->d, c, V4L2_CTRL_WHICH_CUR_VAL, &v);
	if (e && e != DEV_EHUNG && !ctrl_has_payload(&c->q))
		v.v = c->q.default_value;	/* write-only: its default */
	if (e != DEV_EHUNG && p->req != VIDIOC_G_EXT_CTRLS)
		e = p->req == VIDIOC_S_EXT_CTRLS ? ctrl_set(p->d, c, &v) : ctrl_try(p->d, c, &v);
	ctrl_val_free(&v);
	return e;
}

/* A G/S/TRY_EXT_CTRLS of several controls did not return in a check: ask
 * each of them alone (hang_pin) in a process of its own, each ioctl bounded
 * by the check's timeout, the whole bounded too (an open that sleeps for
 * ever must not hold the runner). The control pinned joins the registry
 * (the shared page) from that process. Returns it, or NULL. */
static const struct hang *pin_ext_call(const struct ctrl_model *m, const struct hang_call *c, const char *check,
				       unsigned int timeout_s)
{
	size_t before = hang_count();
	pid_t pid = fork();
	if (pid < 0)
		return NULL;
	if (pid == 0) {
		/* The open is bounded by the default action of SIGALRM (the
		 * process ends); the ioctls by hang_bound's handler. */
		signal(SIGALRM, SIG_DFL);
		alarm(timeout_s);
		struct dev d;
		char err[256], where[96];
		if (dev_open(&d, g_opts.device, g_opts.libv4l2, err, sizeof(err)))
			_exit(1);
		alarm(0);
		snprintf(where, sizeof(where), "in %.60s, asked alone", check);
		hang_bound(timeout_s);
		hang_set_where(where);
		struct pin_ctx p = { &d, m, c->req };
		int k = hang_pin(c, pin_one, &p);
		_exit(k < 0 ? 1 : 0);
	}
	/* Two bounded waits at most, and the open's. */
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int status = 0;
	pid_t r;
	while ((r = waitpid(pid, &status, WNOHANG)) == 0) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 3 * (time_t)timeout_s + 5) {
			kill(pid, SIGKILL);
			/* Not waited for: one stuck in the kernel for good would
			 * hold the runner. What it added is not trusted. */
			hang_truncate(before);
			return NULL;
		}
		usleep(20 * 1000);
	}
	/* Its verdict is the registry: hang_pin leaves an entry only for a
	 * control it pinned (r != pid: reaped elsewhere, the page still says). */
	if (r == pid && (!WIFEXITED(status) || WEXITSTATUS(status)))
		return NULL;
	return hang_count() > before ? hang_at(hang_count() - 1) : NULL;
}

int run_hang_timed_out(const struct ctrl_model *m, const char *check, unsigned int timeout_s, char *msg,
		       size_t len)
{
	struct hang_call c;
	if (!hang_take_call(&c) || (!c.n && !c.next))
		return CK_ERROR;	/* not inside a control ioctl: a plain timeout */
	/* A NEXT query reached the control the model has after its id; a call
	 * that names several controls is pinned on one by asking each alone
	 * (not when its process could not be ended: the device is stuck). */
	uint32_t id = c.next ? model_next_id(m, c.id[0], c.next) : c.n == 1 ? c.id[0] : 0;
	char where[300], what[200], alone[200], old[800], pinned[400] = "";
	snprintf(where, sizeof(where), "in %s", check);
	snprintf(old, sizeof(old), "%s", msg);
	/* A process SIGKILL could not end (an uninterruptible sleep) is still
	 * named, as run_batch says it. */
	const char *stuck = strstr(old, "its test process (pid");
	const struct hang *h = id ? hang_add(c.req, id, timeout_s, where) : NULL;
	if (h) {
		hang_learn_model(m);
		hang_what(h, what, sizeof(what));
	} else {
		hang_call_what(&c, what, sizeof(what));
	}
	if (!id && !c.next && c.n > 1 && !stuck &&
	    (c.req == VIDIOC_G_EXT_CTRLS || c.req == VIDIOC_S_EXT_CTRLS || c.req == VIDIOC_TRY_EXT_CTRLS)) {
		h = pin_ext_call(m, &c, check, timeout_s);
		if (h) {
			hang_learn_model(m);
			snprintf(pinned, sizeof(pinned), "; asked alone, %s did not return in %.0f s either",
				 hang_what(h, alone, sizeof(alone)), h->secs);
		} else {
			snprintf(pinned, sizeof(pinned), "; not pinned on one of its %u controls: asked alone, none "
				 "hung by itself (or the device stopped answering as a whole)", c.n);
		}
	}
	snprintf(msg, len, "%s did not return in %u s (the check's timeout), where the runner sent its test process "
		 "SIGKILL%s%s%s%s", what, timeout_s, pinned,
		 h ? "; the checks that need that control from here on are skipped (hang)" : "", stuck ? "; " : "",
		 stuck ? stuck : "");
	return CK_FAILURE;
}

void run_hang_failures(const struct ctrl_model *m,
		       void (*fn)(const char *name, const struct ctrl *c, const char *msg, void *arg), void *arg)
{
	hang_learn_model(m);	/* names for the ones the snapshot found */
	for (size_t k = 0; k < hang_count(); k++) {
		const struct hang *h = hang_at(k);
		if (h->id && hang_find(h->id) != h)
			continue;	/* one failure per control */
		const struct ctrl *c = model_find(m, h->id);
		char name[128], what[200], msg[1200];
		if (c)
			snprintf(name, sizeof(name), "run/hang/%s", c->slug);
		else
			snprintf(name, sizeof(name), "run/hang/0x%08x", h->id ? h->id : h->from);
		size_t o = 0;
		msg[0] = 0;
		for (size_t j = k; j < hang_count() && o < sizeof(msg); j++) {
			const struct hang *x = hang_at(j);
			if (j != k && (!h->id || x->id != h->id))
				continue;
			o += (size_t)snprintf(msg + o, sizeof(msg) - o, "%s%s did not return in %.0f s (%s)", o ? "; " : "",
					      hang_what(x, what, sizeof(what)), x->secs, x->where);
		}
		if (h->id && o < sizeof(msg))
			snprintf(msg + o, sizeof(msg) - o, "; the checks that need that control are skipped (hang)");
		fn(name, c, msg, arg);
	}
}

/* In a check process, a call that hung is not issued again: the check ends
 * here as a skip (hang_strict). */
static void refuse_hung(const struct hang *h, const char *call)
{
	char r[400];
	v_skip("stopped before %s: %s", call, hang_reason(h, r, sizeof(r)));
}

const struct ctrl *run_hang_check_start(struct ctrl_model *m, struct snapshot *s, bool whole_device, uint32_t cid)
{
	hang_strict(refuse_hung);
	/* A check of the whole device leaves hung controls out of its loops
	 * (its process runs no per-item check, whose items would move); the
	 * others keep the model and only stop reading what hangs. */
	if (whole_device)
		model_drop_hung(m, s);
	else
		snapshot_drop_hung(m, s);
	if (cid && hang_find(cid))
		v_skip("%s", run_hang_skip_reason(cid));
	/* Not "hangs": an info line must not put the check's own skip in the
	 * hang class (skip_class.c). */
	for (size_t k = 0; !cid && k < hang_count(); k++) {
		const struct hang *h = hang_at(k);
		if (h->id && hang_find(h->id) == h)
			v_info("left out of this check: 0x%08x '%s' (run/hang)", h->id, h->name);
	}
	return cid ? model_find(m, cid) : NULL;
}
