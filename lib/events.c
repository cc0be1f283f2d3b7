/* Control events with bounded waits (see events.h). */
#include "events.h"
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int ev_subscribe(const struct dev *d, uint32_t id, uint32_t flags)
{
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_CTRL, .id = id, .flags = flags };
	return dev_ioctl(d, VIDIOC_SUBSCRIBE_EVENT, &sub);
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
