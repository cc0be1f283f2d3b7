/* A hang costs a bounded number of verdicts (see hang.h). */
#include "dev/hang.h"
#include "dev/wedge.h"
#include <linux/videodev2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#define NEXT_FLAGS (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND)

struct hang_page {
	struct hang_call call;		/* in flight, 0: none */
	size_t n;
	struct hang h[HANG_MAX];
};

/* Before hang_init (unit tests, tools) the page is this process's own. */
static struct hang_page own, *page = &own;
static double bound_s;
static volatile sig_atomic_t fired;
static void (*refuse_fn)(const struct hang *h, const char *call);

void hang_init(void)
{
	void *p = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		page = p;
		memset(page, 0, sizeof(*page));
	}
}

void hang_reset(void)
{
	memset(page, 0, sizeof(*page));
}

static void on_alarm(int sig)
{
	(void)sig;
	fired = 1;
}

void hang_bound(double secs)
{
	bound_s = secs;
	if (secs <= 0)
		return;
	/* No SA_RESTART: an interruptible sleep in the driver ends with EINTR. */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
}

bool hang_in_check(void)
{
	return refuse_fn != NULL;
}

void hang_strict(void (*refuse)(const struct hang *h, const char *call))
{
	/* The runner keeps a check's time: no bound of our own in its process. */
	bound_s = 0;
	refuse_fn = refuse;
}

/* An ext call's control ids, read without trusting the pointer (EX-3's
 * checks pass NULL and stale ones on purpose): process_vm_readv reports a
 * bad address instead of faulting. */
static void ext_ids(const struct v4l2_ext_controls *x, struct hang_call *c)
{
	struct v4l2_ext_control ec[HANG_IDS];
	size_t n = x->count < HANG_IDS ? x->count : HANG_IDS;
	if (!n || !x->controls)
		return;
	struct iovec local = { ec, n * sizeof(ec[0]) }, remote = { x->controls, n * sizeof(ec[0]) };
	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)(n * sizeof(ec[0])))
		return;
	for (size_t i = 0; i < n; i++)
		c->id[i] = ec[i].id;
}

bool hang_call_of(unsigned long req, const void *arg, struct hang_call *c)
{
	uint32_t id;
	memset(c, 0, sizeof(*c));
	c->req = req;
	if (!arg)
		return false;
	switch (req) {
	case VIDIOC_QUERYCTRL:
		id = ((const struct v4l2_queryctrl *)arg)->id;
		break;
	case VIDIOC_QUERY_EXT_CTRL:
		id = ((const struct v4l2_query_ext_ctrl *)arg)->id;
		break;
	case VIDIOC_QUERYMENU:
		c->n = 1;
		c->id[0] = ((const struct v4l2_querymenu *)arg)->id;
		return true;
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL:
		c->n = 1;
		c->id[0] = ((const struct v4l2_control *)arg)->id;
		return true;
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
		c->n = ((const struct v4l2_ext_controls *)arg)->count;
		ext_ids(arg, c);
		return true;
	default:
		return false;
	}
	/* A query: an exact id, or NEXT_CTRL / NEXT_COMPOUND from one (QC-3). */
	c->n = 1;
	c->next = id & NEXT_FLAGS;
	c->id[0] = c->next ? id & V4L2_CTRL_ID_MASK : id;
	return true;
}

bool hang_reaches(const struct hang *h, uint32_t from, uint32_t next)
{
	if (!h->id)
		return false;
	if (!next)
		return from == h->id;
	from &= V4L2_CTRL_ID_MASK;
	if (!h->order_known || from >= h->id)
		return false;
	/* NEXT_CTRL alone skips compound controls, NEXT_COMPOUND alone finds
	 * only those (QC-4): the query reaches h if nothing of the kinds it
	 * takes lies between `from` and h. */
	bool plain = next & V4L2_CTRL_FLAG_NEXT_CTRL, cmpd = next & V4L2_CTRL_FLAG_NEXT_COMPOUND;
	if (h->compound ? !cmpd : !plain)
		return false;
	uint32_t prev = !cmpd ? h->prev_plain : !plain ? h->prev_compound
		      : (h->prev_plain > h->prev_compound ? h->prev_plain : h->prev_compound);
	return from >= prev;
}

const struct hang *hang_blocking(const struct hang_call *c)
{
	for (size_t i = 0; i < page->n; i++) {
		const struct hang *h = &page->h[i];
		if (!h->id || h->req != c->req)
			continue;
		if (c->next) {
			if (hang_reaches(h, c->id[0], c->next))
				return h;
			continue;
		}
		for (size_t k = 0; k < c->n && k < HANG_IDS; k++)
			if (c->id[k] == h->id)
				return h;
	}
	return NULL;
}

/* "VIDIOC_G_EXT_CTRLS of 0x00980900, 0x00980901 (and 10 more)" */
const char *hang_call_what(const struct hang_call *c, char *buf, size_t len)
{
	char nb[32];
	int o = snprintf(buf, len, "%s", wedge_ioctl_name(c->req, nb, sizeof(nb)));
	if (c->next) {
		snprintf(buf + o, len - (size_t)o, " with %s after 0x%08x",
			 c->next == NEXT_FLAGS ? "NEXT_CTRL|NEXT_COMPOUND"
			 : c->next == V4L2_CTRL_FLAG_NEXT_CTRL ? "NEXT_CTRL" : "NEXT_COMPOUND", c->id[0]);
		return buf;
	}
	for (size_t k = 0; k < c->n && k < HANG_IDS_SHOWN && (size_t)o < len; k++)
		o += snprintf(buf + o, len - (size_t)o, "%s0x%08x", k ? ", " : " of ", c->id[k]);
	if (c->n > HANG_IDS_SHOWN && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, " (and %u more)", c->n - HANG_IDS_SHOWN);
	return buf;
}

int hang_before(unsigned long req, const void *arg)
{
	struct hang_call c;
	if (!page->n || !hang_call_of(req, arg, &c))
		return 0;
	/* The ioctl that hung, of that control: its other ioctls still answer
	 * (QUERY_EXT_CTRL when QUERYCTRL sleeps); one that does not costs one
	 * more timeout and joins the registry. */
	const struct hang *h = hang_blocking(&c);
	if (!h)
		return 0;
	if (refuse_fn) {
		char buf[160];
		refuse_fn(h, hang_call_what(&c, buf, sizeof(buf)));
	}
	return DEV_EHUNG;
}

static char where_now[96] = "while building the control model";

void hang_set_where(const char *where)
{
	snprintf(where_now, sizeof(where_now), "%s", where);
}

void hang_ioctl_begin(unsigned long req, const void *arg)
{
	if (!hang_call_of(req, arg, &page->call))
		page->call.n = 0;
	if (bound_s <= 0)
		return;
	fired = 0;
	struct itimerval it;
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = (time_t)bound_s;
	it.it_value.tv_usec = (suseconds_t)((bound_s - (double)(time_t)bound_s) * 1e6);
	setitimer(ITIMER_REAL, &it, NULL);
}

bool hang_expired(void)
{
	return bound_s > 0 && fired;
}

void hang_ioctl_end(bool timed_out)
{
	if (bound_s > 0) {
		struct itimerval off;
		memset(&off, 0, sizeof(off));
		setitimer(ITIMER_REAL, &off, NULL);
	}
	struct hang_call c = page->call;
	page->call.req = 0;
	if (!timed_out || (!c.n && !c.next))
		return;
	/* An exact id names its control; a NEXT query is resolved by the
	 * caller (ctrl_enum's walk) when it can: hang_at(hang_count() - 1). */
	struct hang *h = hang_add(c.req, c.next || c.n != 1 ? 0 : c.id[0], bound_s, where_now);
	if (h && c.next) {
		h->from = c.id[0];
		h->next = c.next;
	}
}

size_t hang_count(void)
{
	return page->n;
}

struct hang *hang_at(size_t i)
{
	return i < page->n ? &page->h[i] : NULL;
}

const struct hang *hang_find(uint32_t id)
{
	for (size_t i = 0; id && i < page->n; i++)
		if (page->h[i].id == id)
			return &page->h[i];
	return NULL;
}

bool hang_blocks_values(uint32_t id)
{
	for (size_t i = 0; id && i < page->n; i++) {
		unsigned long r = page->h[i].req;
		if (page->h[i].id == id && (r == VIDIOC_G_CTRL || r == VIDIOC_S_CTRL || r == VIDIOC_G_EXT_CTRLS ||
					    r == VIDIOC_S_EXT_CTRLS || r == VIDIOC_TRY_EXT_CTRLS))
			return true;
	}
	return false;
}

struct hang *hang_add(unsigned long req, uint32_t id, double secs, const char *where)
{
	if (page->n >= HANG_MAX)
		return NULL;
	struct hang *h = &page->h[page->n++];
	memset(h, 0, sizeof(*h));
	h->req = req;
	h->id = id;
	h->secs = secs;
	snprintf(h->where, sizeof(h->where), "%s", where ? where : "");
	return h;
}

bool hang_take_call(struct hang_call *c)
{
	*c = page->call;
	page->call.req = 0;
	return c->req != 0;
}

void hang_truncate(size_t n)
{
	if (n < page->n)
		page->n = n;
}

int hang_pin(const struct hang_call *c, int (*one)(uint32_t id, void *arg), void *arg)
{
	size_t n = c->n < HANG_IDS ? c->n : HANG_IDS, before = page->n;
	for (size_t k = 0; k < n; k++) {
		if (!c->id[k] || one(c->id[k], arg) != DEV_EHUNG)
			continue;
		/* Does the device still answer? Another named control, once. */
		size_t other = k + 1 < n ? k + 1 : k ? k - 1 : k;
		if (other != k && c->id[other] && c->id[other] != c->id[k] && one(c->id[other], arg) == DEV_EHUNG) {
			hang_truncate(before);
			return -1;
		}
		return (int)k;
	}
	return -1;
}

const char *hang_what(const struct hang *h, char *buf, size_t len)
{
	char nb[32];
	const char *req = wedge_ioctl_name(h->req, nb, sizeof(nb));
	if (!h->id) {
		struct hang_call c = { .req = h->req, .next = h->next, .n = 1, .id = { h->from } };
		return hang_call_what(&c, buf, len);
	}
	if (h->name[0])
		snprintf(buf, len, "%s of 0x%08x '%s'", req, h->id, h->name);
	else
		snprintf(buf, len, "%s of 0x%08x", req, h->id);
	return buf;
}

const char *hang_reason(const struct hang *h, char *buf, size_t len)
{
	char what[128];
	snprintf(buf, len, "%s hangs (did not return in %.0f s, %s)", hang_what(h, what, sizeof(what)), h->secs,
		 h->where);
	return buf;
}

uint32_t hang_probe_start(void)
{
	uint32_t start = 0;
	for (size_t round = 0; round <= page->n; round++) {
		bool moved = false;
		for (size_t i = 0; i < page->n; i++)
			if (hang_reaches(&page->h[i], start, V4L2_CTRL_FLAG_NEXT_CTRL)) {
				start = page->h[i].id;
				moved = true;
			}
		if (!moved)
			break;
	}
	return start;
}
