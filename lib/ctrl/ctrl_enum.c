/* Enumeration by each method. The walks are bounded so that a driver whose
 * NEXT_CTRL never ends (or goes backwards) is reported, not looped on. */
#include "ctrl/ctrl_enum.h"
#include "dev/hang.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void push(struct id_list *l, uint32_t id)
{
	if (l->n % 64 == 0) {
		l->id = realloc(l->id, (l->n + 64) * sizeof(*l->id));
		if (!l->id)
			abort();
	}
	l->id[l->n++] = id;
}

void enum_id_loop(const struct dev *d, struct id_list *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t id = V4L2_CID_BASE; id < V4L2_CID_LASTP1; id++) {
		struct v4l2_queryctrl qc = { .id = id };
		if (dev_ioctl(d, VIDIOC_QUERYCTRL, &qc) == 0)
			push(out, id);
	}
	/* Old-style private controls: PRIVATE_BASE+n until the first EINVAL. */
	for (uint32_t n = 0; n < ENUM_MAX_STEPS; n++) {
		struct v4l2_queryctrl qc = { .id = V4L2_CID_PRIVATE_BASE + n };
		int e = dev_ioctl(d, VIDIOC_QUERYCTRL, &qc);
		if (e) {
			out->end_err = e;
			return;
		}
		push(out, V4L2_CID_PRIVATE_BASE + n);
		out->n_private++;
	}
	out->aborted = true;
}

/* One query of `id | flags` by QUERY_EXT_CTRL (ext) or QUERYCTRL: its errno,
 * and in *got the id the driver answered with. */
static int query_by(const struct dev *d, bool ext, uint32_t id, uint32_t flags, uint32_t *got)
{
	int e;
	if (ext) {
		struct v4l2_query_ext_ctrl q = { .id = id | flags };
		e = dev_ioctl(d, VIDIOC_QUERY_EXT_CTRL, &q);
		*got = q.id;
	} else {
		struct v4l2_queryctrl q = { .id = id | flags };
		e = dev_ioctl(d, VIDIOC_QUERYCTRL, &q);
		*got = q.id;
	}
	return e;
}

/* The id a NEXT query from `id` reaches, asked with the other query ioctl
 * (QUERYCTRL for QUERY_EXT_CTRL and back; QC-20: both find the same
 * controls). 0 if it does not answer. */
static uint32_t other_next(const struct dev *d, bool ext, uint32_t id, uint32_t flags)
{
	uint32_t got;
	return query_by(d, !ext, id, flags, &got) ? 0 : got & V4L2_CTRL_ID_MASK;
}

/* Building the model (the runner): a query that did not return (DEV_EHUNG,
 * the runner's bound; dev/hang.h) is named by the other query ioctl, and the
 * walk goes on past it; a control whose query is known to hang is stepped
 * over the same way, not asked again.
 * Returns the id reached that way, 0 if there is none. */
static uint32_t past_hang(const struct dev *d, bool ext, uint32_t id, uint32_t flags, bool timed_out)
{
	unsigned long req = ext ? VIDIOC_QUERY_EXT_CTRL : VIDIOC_QUERYCTRL;
	/* A check judges the walk the driver gives: it never steps over
	 * anything (the query that would reach a hung control ends it). */
	if (hang_in_check())
		return 0;
	struct hang *last = hang_count() ? hang_at(hang_count() - 1) : NULL;
	if (timed_out) {
		if (!last || last->id || last->req != req)
			return 0;
		uint32_t nx = other_next(d, ext, id, flags);
		if (nx)
			last->id = nx;
		return nx;
	}
	bool same_req = false;
	for (size_t i = 0; i < hang_count(); i++)
		same_req |= hang_at(i)->id && hang_at(i)->req == req;
	if (!same_req)
		return 0;
	uint32_t nx = other_next(d, ext, id, flags);
	const struct hang *h = nx ? hang_find(nx) : NULL;
	return h && h->req == req ? nx : 0;
}

static void walk(const struct dev *d, bool ext, uint32_t flags, struct id_list *out)
{
	uint32_t id = 0;
	memset(out, 0, sizeof(*out));
	for (unsigned step = 0; step < ENUM_MAX_STEPS; step++) {
		uint32_t got = past_hang(d, ext, id, flags, false);
		int e = 0;
		if (!got)	/* else: stepped over a control whose query hangs */
			e = query_by(d, ext, id, flags, &got);
		if (e == DEV_EHUNG && (got = past_hang(d, ext, id, flags, true)))
			e = 0;
		if (e) {
			out->end_err = e;
			return;
		}
		push(out, got);
		/* The next query starts from the returned id with the flags
		 * stripped; an id that does not increase would loop forever. */
		got &= ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
		if (got <= id && step > 0) {
			out->aborted = true;
			return;
		}
		id = got;
	}
	out->aborted = true;
}

void enum_next_ctrl(const struct dev *d, struct id_list *out)
{
	walk(d, false, V4L2_CTRL_FLAG_NEXT_CTRL, out);
}

void enum_next_ext(const struct dev *d, uint32_t flags, struct id_list *out)
{
	walk(d, true, flags, out);
}

void id_list_free(struct id_list *l)
{
	free(l->id);
	memset(l, 0, sizeof(*l));
}

bool id_list_has(const struct id_list *l, uint32_t id)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->id[i] == id)
			return true;
	return false;
}

bool ctrl_ioctls_absent(const struct dev *d)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	struct v4l2_query_ext_ctrl qe = { .id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND };
	return dev_ioctl(d, VIDIOC_QUERYCTRL, &q) == ENOTTY && dev_ioctl(d, VIDIOC_QUERY_EXT_CTRL, &qe) == ENOTTY;
}
