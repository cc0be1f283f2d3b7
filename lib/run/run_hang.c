/* The runner's side of a control whose ioctl hangs (see run_hang.h). */
#include "run/run_hang.h"
#include "check/verdict.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int run_hang_timed_out(const struct ctrl_model *m, const char *check, unsigned int timeout_s, char *msg,
		       size_t len)
{
	struct hang_call c;
	if (!hang_take_call(&c) || (!c.n && !c.next))
		return CK_ERROR;	/* not inside a control ioctl: a plain timeout */
	/* A NEXT query reached the control the model has after its id; a call
	 * that names several controls is not pinned on one of them. */
	uint32_t id = c.next ? model_next_id(m, c.id[0], c.next) : c.n == 1 ? c.id[0] : 0;
	char where[300], what[200], old[800];
	snprintf(where, sizeof(where), "in %s", check);
	struct hang *h = id ? hang_add(c.req, id, timeout_s, where) : NULL;
	if (h) {
		hang_learn_model(m);
		hang_what(h, what, sizeof(what));
	} else {
		hang_call_what(&c, what, sizeof(what));
	}
	/* A process SIGKILL could not end (an uninterruptible sleep) is still
	 * named, as run_batch says it. */
	snprintf(old, sizeof(old), "%s", msg);
	const char *stuck = strstr(old, "its test process (pid");
	snprintf(msg, len, "%s did not return in %u s (the check's timeout), where the runner sent its test process "
		 "SIGKILL%s%s%s", what, timeout_s,
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
