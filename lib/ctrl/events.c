/* Control events with bounded waits (see events.h). */
#include "ctrl/events.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Controls the check itself subscribed to, on any handle of this process:
 * ev_quiet never uses one of them as its sentinel. */
#define MAX_TRACKED 256
static uint32_t subscribed[MAX_TRACKED];
static size_t n_subscribed;
static bool subscribed_overflow;

static bool check_subscribed(uint32_t id)
{
	for (size_t i = 0; i < n_subscribed; i++)
		if (subscribed[i] == id)
			return true;
	return subscribed_overflow;
}

static int subscribe_raw(const struct dev *d, uint32_t id, uint32_t flags)
{
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_CTRL, .id = id, .flags = flags };
	return dev_ioctl(d, VIDIOC_SUBSCRIBE_EVENT, &sub);
}

int ev_subscribe(const struct dev *d, uint32_t id, uint32_t flags)
{
	if (!check_subscribed(id)) {
		if (n_subscribed < MAX_TRACKED)
			subscribed[n_subscribed++] = id;
		else
			subscribed_overflow = true;
	}
	return subscribe_raw(d, id, flags);
}

int ev_unsubscribe(const struct dev *d, uint32_t type, uint32_t id)
{
	struct v4l2_event_subscription sub = { .type = type, .id = id };
	return dev_ioctl(d, VIDIOC_UNSUBSCRIBE_EVENT, &sub);
}

int ev_subscribe_model(const struct dev *d, const struct ctrl_model *m, uint32_t flags, uint32_t *bad_id)
{
	for (size_t i = 0; i < m->n; i++) {
		int e = ev_subscribe(d, m->c[i].q.id, flags);
		if (e) {
			if (bad_id)
				*bad_id = m->c[i].q.id;
			return e;
		}
	}
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int ev_poll(const struct dev *d, int timeout_ms, short *revents)
{
	long long end = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	for (;;) {
		struct pollfd p = { .fd = d->fd, .events = POLLPRI };
		long long left = end - now_ms();
		int r = poll(&p, 1, left > 0 ? (int)left : 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (revents)
			*revents = r > 0 ? p.revents : 0;
		if (r < 0)
			return -errno;
		return r > 0 && (p.revents & POLLPRI) ? 1 : 0;
	}
}

int ev_dequeue(const struct dev *d, struct v4l2_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	return dev_ioctl(d, VIDIOC_DQEVENT, ev);
}

int ev_wait(const struct dev *d, int timeout_ms, struct v4l2_event *ev)
{
	int e = ev_dequeue(d, ev);
	if (e != ENOENT)
		return e;
	int r = ev_poll(d, timeout_ms, NULL);
	if (r < 0)
		return -r;
	if (!r)
		return ETIMEDOUT;
	e = ev_dequeue(d, ev);
	return e == ENOENT ? ETIMEDOUT : e;
}

int ev_wait_id(const struct dev *d, uint32_t id, int timeout_ms, struct v4l2_event *ev, unsigned *others)
{
	long long end = now_ms() + timeout_ms;
	for (;;) {
		long long left = end - now_ms();
		int e = ev_wait(d, left > 0 ? (int)left : 0, ev);
		if (e)
			return e;
		if (ev->type == V4L2_EVENT_CTRL && ev->id == id)
			return 0;
		if (others)
			(*others)++;
	}
}

int ev_drain(const struct dev *d, struct v4l2_event *evs, size_t max)
{
	int n = 0;
	for (;;) {
		struct v4l2_event ev;
		int e = ev_dequeue(d, &ev);
		if (e == ENOENT)
			return n;
		if (e)
			return -e;
		if (evs && (size_t)n < max)
			evs[n] = ev;
		n++;
		if (n > 100000)
			return -ELOOP;	/* a driver that never runs dry */
	}
}

/* Every event that arrives within quiet_ms of the last one (the first
 * within first_ms); counts them, the first in *first. */
static int collect(const struct dev *d, int first_ms, int quiet_ms, struct v4l2_event *first)
{
	int n = 0;
	for (;;) {
		struct v4l2_event ev;
		int e = ev_wait(d, n ? quiet_ms : first_ms, &ev);
		if (e == ETIMEDOUT)
			return n;
		if (e)
			return -e;
		if (!n++ && first)
			*first = ev;
		if (n > 1000)
			return n;	/* a driver that never runs dry */
	}
}

int ev_settle(const struct dev *d, const struct ctrl_model *m)
{
	if (dev_is_m2m(d)) {
		usleep(EV_SETTLE_MS * 1000);
		return 0;
	}
	struct dev other;
	if (dev_reopen(d, &other))
		return -EIO;
	/* Raw subscriptions: the listener's are not the check's (ev_quiet's
	 * sentinel stays usable). */
	int e = 0;
	for (size_t i = 0; i < m->n && !e; i++)
		e = subscribe_raw(&other, m->c[i].q.id, 0);
	int n = 0;
	long long end = now_ms() + EV_SETTLE_MAX_MS;
	while (!e && now_ms() < end) {
		struct v4l2_event ev;
		e = ev_wait(&other, EV_SETTLE_MS, &ev);
		if (e == ETIMEDOUT) {
			e = 0;
			break;
		}
		if (!e)
			n++;
	}
	dev_close(&other);
	return e ? -e : n;
}

/* Per check: a sentinel that did not arrive is not tried again. */
static bool sentinel_silent;

void ev_new_check(void)
{
	n_subscribed = 0;
	subscribed_overflow = false;
	sentinel_silent = false;
}

/* Where the sentinel's change is made: another handle of the device; on a
 * memory-to-memory node, where another handle is another context that
 * never hears of it (PE-2), d itself, subscribed with ALLOW_FEEDBACK (EV-4):
 * its own change is queued on d inside the set ioctl, after anything that
 * was already pending, so the order proves the same. */
static bool sentinel_fire(const struct dev *d, const struct ctrl *s, int64_t *nv)
{
	bool own = dev_is_m2m(d);
	struct dev other;
	int64_t cur = 0;
	if (!own && dev_reopen(d, &other))
		return false;
	const struct dev *setter = own ? d : &other;
	bool armed = !subscribe_raw(d, s->q.id, own ? V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK : 0) &&
		     !ctrl_get_scalar(setter, s, &cur) && ctrl_other_value(s, cur, nv) && !ctrl_set_scalar(setter, s, nv);
	if (!own)
		dev_close(&other);
	return armed;
}

int ev_quiet(const struct dev *d, const struct ctrl_model *m, struct v4l2_event *first)
{
	const struct ctrl *s = m->quiet_sentinel ? model_find(m, m->quiet_sentinel) : NULL;
	int64_t nv = 0;
	if (!s || sentinel_silent || check_subscribed(s->q.id))
		return collect(d, EV_QUIET_MS, EV_QUIET_MS, first);
	bool armed = sentinel_fire(d, s, &nv);
	if (!armed)
		return collect(d, EV_QUIET_MS, EV_QUIET_MS, first);
	int n = 0;
	for (;;) {
		struct v4l2_event ev;
		int e = ev_wait(d, EV_WAIT_MS, &ev);
		if (e == ETIMEDOUT) {
			/* Nothing at all for EV_WAIT_MS: quiet, but the sentinel
			 * proves nothing on this device any more. */
			sentinel_silent = true;
			return n;
		}
		if (e)
			return -e;
		if (ev.type == V4L2_EVENT_CTRL && ev.id == s->q.id) {
			if ((ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE) && ev.u.ctrl.value == (int32_t)nv)
				return n;
			continue;	/* the sentinel's flags, or an older change of it */
		}
		if (!n++ && first)
			*first = ev;
	}
}

/* One change of c through d: exactly one event on `all`, c's own, with
 * the new value. */
static bool changes_alone(const struct dev *d, const struct dev *all, const struct ctrl *c, int64_t v)
{
	struct v4l2_event ev;
	int64_t w = v;
	if (ctrl_set_scalar(d, c, &w) || w != v)
		return false;
	return collect(all, EV_WAIT_MS, EV_QUIET_MS, &ev) == 1 && ev.type == V4L2_EVENT_CTRL && ev.id == c->q.id &&
	       (ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE) && ev.u.ctrl.value == (int32_t)v;
}

static bool sentinel_candidate(const struct ctrl *c, bool standard)
{
	const uint32_t bad = V4L2_CTRL_FLAG_UPDATE | V4L2_CTRL_FLAG_INACTIVE | V4L2_CTRL_FLAG_GRABBED |
			     V4L2_CTRL_FLAG_DISABLED | V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
	/* Driver-private ids sit at 0x1000 and above within their class. */
	bool is_standard = (c->q.id & 0xffff) < 0x1000;
	return ctrl_settable_scalar(c) && is_standard == standard && !(c->q.flags & bad) &&
	       (c->q.type == V4L2_CTRL_TYPE_INTEGER || c->q.type == V4L2_CTRL_TYPE_BOOLEAN);
}

uint32_t ev_pick_sentinel(const struct dev *d, const struct ctrl_model *m)
{
	struct dev all;
	uint32_t found = 0;
	int tries = 0;
	if (dev_reopen(d, &all))
		return 0;
	/* A memory-to-memory node: a context of its own, which hears its own
	 * changes only (ALLOW_FEEDBACK) and makes them (sentinel_fire). The
	 * checks' handles are contexts of the same driver. */
	bool own = dev_is_m2m(d);
	if (own)
		d = &all;
	for (size_t i = 0; i < m->n; i++)
		subscribe_raw(&all, m->c[i].q.id, own ? V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK : 0);
	for (int standard = 1; standard >= 0 && !found; standard--)
		for (size_t i = m->n; i-- > 0 && !found && tries < 3;) {
			const struct ctrl *c = &m->c[i];
			int64_t cur, nv;
			if (!sentinel_candidate(c, standard) || ctrl_get_scalar(d, c, &cur) ||
			    !ctrl_other_value(c, cur, &nv))
				continue;
			tries++;
			ev_drain(&all, NULL, 0);
			bool ok = changes_alone(d, &all, c, nv);
			int64_t back = cur;
			ctrl_set_scalar(d, c, &back);
			if (ok && collect(&all, EV_WAIT_MS, EV_QUIET_MS, NULL) == 1)
				found = c->q.id;
		}
	dev_close(&all);
	return found;
}

const char *ev_changes_str(uint32_t changes, char *buf, size_t len)
{
	static const char *const names[] = { "value", "flags", "range", "dimensions" };
	size_t o = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < 32 && o < len; i++) {
		if (!(changes & (1u << i)))
			continue;
		if (i < 4)
			o += snprintf(buf + o, len - o, "%s%s", o ? "|" : "", names[i]);
		else
			o += snprintf(buf + o, len - o, "%s0x%x", o ? "|" : "", 1u << i);
	}
	if (!o)
		snprintf(buf, len, "none");
	return buf;
}

const char *ev_str(const struct v4l2_event *ev, char *buf, size_t len)
{
	char ch[64];
	if (ev->type != V4L2_EVENT_CTRL) {
		snprintf(buf, len, "event type %u id 0x%08x seq=%u", ev->type, ev->id, ev->sequence);
		return buf;
	}
	snprintf(buf, len, "ctrl 0x%08x changes=%s value=%d value64=%" PRId64 " flags=0x%x seq=%u pending=%u",
		 ev->id, ev_changes_str(ev->u.ctrl.changes, ch, sizeof(ch)), ev->u.ctrl.value,
		 (int64_t)ev->u.ctrl.value64, ev->u.ctrl.flags, ev->sequence, ev->pending);
	return buf;
}
