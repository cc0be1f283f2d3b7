/* Controls in requests (spec section 10, RQ-n; vidioc-g-ext-ctrls.rst,
 * request-api.rst, media-request-ioc-queue.rst, media-request-ioc-reinit.rst
 * of 6.1 and 6.12). Whether a node takes requests is what its buffer queue
 * reports (V4L2_BUF_CAP_SUPPORTS_REQUESTS) and its media device is the one
 * sysfs names: nothing here knows a driver, so the same checks hold on a
 * stateless decoder (hantro, rkvdec) as on vivid. A request is queued with one
 * buffer (a request without one cannot be queued); it completes when the
 * queue streams and the device processes that buffer. */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/ext_ctrls.h"
#include "ctrl/request.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <stdio.h>
#include <unistd.h>

#define RQ_COMPLETE_MS 5000

/* One request-carrying ext call on a single control: 0 or the errno; the
 * value the driver left in the entry goes to *out. */
static int rq_ext(const struct dev *d, unsigned long ioc, int req, const struct ctrl *c, int64_t v, int64_t *out)
{
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_REQUEST_VAL);
	b.request_fd = req;
	ext_add(&b, c, v);
	int e = ext_do(d, ioc, &b);
	if (out)
		*out = ext_scalar(&b, 0);
	ext_free(&b);
	return e;
}

/* media-request-ioc-queue.rst: ENOENT also when "some required configuration
 * is missing in the request". What a stateless decoder requires is its
 * per-frame parameters, the payload controls: the request carries their
 * current values (valid by construction) so that it can be queued. */
static void carry_payloads(const struct check_ctx *cx, int req)
{
	for (size_t i = 0; i < cx->model->n; i++) {
		const struct ctrl *c = &cx->model->c[i];
		if (!ext_payload_rw(c))
			continue;
		struct ctrl_val v = { 0 };
		if (ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &v))
			continue;
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_REQUEST_VAL);
		b.request_fd = req;
		ext_add_val(&b, c, &v);
		int e = ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b);
		if (e)
			v_info("%s: its current value refused into a request: %s", c->slug, errno_name(e));
		ext_free(&b);
		ctrl_val_free(&v);
	}
}

static void open_requests(const struct check_ctx *cx, struct rq_dev *r)
{
	rq_open(cx->dev, r);
	if (!r->supports) {
		char why[sizeof(r->why)];
		snprintf(why, sizeof(why), "%s", r->why);
		rq_close(r);
		v_skip("the node does not support requests: %s", why);
	}
}

static int alloc_or_fail(const struct rq_dev *r)
{
	int req = rq_alloc(r);
	if (req < 0)
		ck_abort_msg("MEDIA_IOC_REQUEST_ALLOC on %s: %s (request-api.rst: a device whose queue reports "
			     "SUPPORTS_REQUESTS allocates requests)", r->media_path, errno_name(-req));
	return req;
}

/* A plain control and a value other than its current one. */
static const struct ctrl *pick(const struct check_ctx *cx, const struct ctrl *not, int64_t *cur, int64_t *other)
{
	const struct ctrl *p[4];
	size_t n = ext_pick_plain(cx->model, 0, not ? &not : NULL, not ? 1 : 0, p, 1);
	if (!n)
		v_skip("no settable plain control to put into a request");
	expect_ok(ctrl_get_scalar(cx->dev, p[0], cur), "reading %s", p[0]->slug);
	if (!ctrl_other_value(p[0], *cur, other))
		v_skip("%s has a single valid value", p[0]->slug);
	return p[0];
}

static void expect_current(const struct check_ctx *cx, const struct ctrl *c, int64_t want, const char *when)
{
	int64_t got = 0;
	expect_ok(ctrl_get_scalar(cx->dev, c, &got), "reading the current value of %s", c->slug);
	expect_eq(got, want, "the current value of %s %s", c->slug, when);
}

/* RQ-1: a device without request support refuses REQUEST_VAL. The doc says
 * EACCES; the framework gives EINVAL (no media device) or EBADR (a media
 * device without request ops) and the rule book accepts each. */
static void no_support(const struct check_ctx *cx)
{
	struct rq_dev r;
	rq_open(cx->dev, &r);
	bool sup = r.supports;
	rq_close(&r);
	if (sup)
		v_skip("the node supports requests (RQ-1 is for nodes without)");
	int64_t cur = 0, other;
	const struct ctrl *c = pick(cx, NULL, &cur, &other);
	static const unsigned long ioc[] = { VIDIOC_G_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS, VIDIOC_S_EXT_CTRLS };
	for (size_t i = 0; i < 3; i++) {
		int e = rq_ext(cx->dev, ioc[i], cx->dev->fd, c, other, NULL);
		ck_assert_msg(e == EACCES || e == EBADR || e == EINVAL || e == ENOTTY,
			      "%s with which=REQUEST_VAL on a node without requests: expected EACCES (or the "
			      "framework's EBADR/EINVAL), got %s (RQ-1)", ext_req_name(ioc[i]), errno_name(e));
	}
	expect_current(cx, c, cur, "after S_EXT_CTRLS with REQUEST_VAL was refused (RQ-1)");
}

/* RQ-2: request_fd negative, not a request, or a closed request: EINVAL. */
static void bad_fd(const struct check_ctx *cx)
{
	struct rq_dev r;
	open_requests(cx, &r);
	int64_t cur = 0, other;
	const struct ctrl *c = pick(cx, NULL, &cur, &other);
	int closed = alloc_or_fail(&r);
	close(closed);
	const struct { int fd; const char *what; } bad[] = {
		{ -1, "request_fd -1" },
		{ cx->dev->fd, "the video node's own fd as request_fd" },
		{ r.media_fd, "the media device's fd as request_fd" },
		{ closed, "a closed request fd" },
	};
	static const unsigned long ioc[] = { VIDIOC_G_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS, VIDIOC_S_EXT_CTRLS };
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
		for (size_t i = 0; i < 3; i++)
			expect_errno(rq_ext(cx->dev, ioc[i], bad[k].fd, c, other, NULL), EINVAL,
				     "%s with %s (RQ-2)", ext_req_name(ioc[i]), bad[k].what);
	expect_current(cx, c, cur, "after refused request calls (RQ-2)");
	rq_close(&r);
}

/* RQ-4 (unqueued), RQ-3: S and TRY into a request that is not queued succeed
 * and leave the current value alone; G of it gives EACCES until it completes. */
static void deferred(const struct check_ctx *cx)
{
	struct rq_dev r;
	open_requests(cx, &r);
	int64_t cur = 0, other, got = 0;
	const struct ctrl *c = pick(cx, NULL, &cur, &other);
	int req = alloc_or_fail(&r);
	/* TRY into a request that holds no control yet: the doc allows it; the
	 * framework gives ENOMEM (v4l2-ctrls-request.c:198 in 6.1 and 6.12,
	 * v4l2_ctrls_find_req_obj with set == false), so warn, don't fail. */
	int e = rq_ext(cx->dev, VIDIOC_TRY_EXT_CTRLS, req, c, other, &got);
	if (e == ENOMEM)
		v_warn("TRY_EXT_CTRLS into an empty request gives ENOMEM (the framework's choice, v4l2-ctrls-request.c:198); "
		       "vidioc-g-ext-ctrls.rst allows TRY for a request (RQ-6)");
	else
		expect_ok(e, "TRY_EXT_CTRLS %s=%lld into an empty request (RQ-4)", c->slug, (long long)other);
	expect_current(cx, c, cur, "after TRY in a request (RQ-4)");
	expect_ok(rq_ext(cx->dev, VIDIOC_S_EXT_CTRLS, req, c, other, &got), "S_EXT_CTRLS %s=%lld into a request (RQ-4)",
		  c->slug, (long long)other);
	expect_current(cx, c, cur, "after S_EXT_CTRLS into a request that was not queued (RQ-4)");
	expect_ok(rq_ext(cx->dev, VIDIOC_TRY_EXT_CTRLS, req, c, cur, &got), "TRY_EXT_CTRLS %s=%lld into the request (RQ-4)",
		  c->slug, (long long)cur);
	expect_current(cx, c, cur, "after TRY into the request (RQ-4)");
	expect_errno(rq_ext(cx->dev, VIDIOC_G_EXT_CTRLS, req, c, 0, NULL), EACCES,
		     "G_EXT_CTRLS of a request that has not completed (RQ-3)");
	close(req);
	expect_current(cx, c, cur, "after the request was closed unqueued (RQ-4)");
	rq_close(&r);
}

/* RQ-4 (queued), RQ-3: a queued request that has not completed takes no more
 * values (EBUSY) and cannot be read (EACCES). The queue is not streaming, so
 * the request stays queued until the buffers are freed. */
static void queued(const struct check_ctx *cx)
{
	struct rq_dev r;
	open_requests(cx, &r);
	int64_t cur = 0, other;
	const struct ctrl *c = pick(cx, NULL, &cur, &other);
	struct v4l2_requestbuffers rb = { .count = RQ_MAX_BUFS, .type = r.buf_type, .memory = V4L2_MEMORY_MMAP };
	expect_ok(dev_ioctl(cx->dev, VIDIOC_REQBUFS, &rb), "REQBUFS on the request queue");
	r.nbufs = rb.count;
	int req = alloc_or_fail(&r);
	expect_ok(rq_ext(cx->dev, VIDIOC_S_EXT_CTRLS, req, c, other, NULL), "S_EXT_CTRLS into a request (RQ-4)");
	carry_payloads(cx, req);
	expect_ok(rq_queue_buffer(&r, req), "QBUF with the request");
	expect_ok(rq_queue(req), "MEDIA_REQUEST_IOC_QUEUE");
	int64_t again = cur;
	expect_errno(rq_ext(cx->dev, VIDIOC_S_EXT_CTRLS, req, c, again, NULL), EBUSY,
		     "S_EXT_CTRLS into a queued request (RQ-4: EBUSY)");
	expect_errno(rq_ext(cx->dev, VIDIOC_G_EXT_CTRLS, req, c, 0, NULL), EACCES,
		     "G_EXT_CTRLS of a queued request that has not completed (RQ-3)");
	expect_current(cx, c, cur, "while the request is queued and not applied (RQ-4)");
	rq_stream_stop(&r);
	close(req);
	rq_close(&r);
}

/* RQ-5: after completion the request holds the values it applied; a control it
 * did not set reads as it was then; after MEDIA_REQUEST_IOC_REINIT the request
 * is empty again and G gives EACCES. Only a capture queue completes a request
 * on its own: an m2m queue needs a real job (a bitstream) to process. */
static void completed(const struct check_ctx *cx)
{
	struct rq_dev r;
	open_requests(cx, &r);
	if (r.buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE && r.buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		rq_close(&r);
		v_skip("requests go to an output queue: completing one needs a valid job for the device");
	}
	int64_t cur_a = 0, new_a, cur_b = 0, new_b;
	const struct ctrl *a = pick(cx, NULL, &cur_a, &new_a);
	const struct ctrl *b = NULL;
	const struct ctrl *p[1];
	if (ext_pick_plain(cx->model, 0, &a, 1, p, 1)) {
		b = p[0];
		expect_ok(ctrl_get_scalar(cx->dev, b, &cur_b), "reading %s", b->slug);
	}
	int req = alloc_or_fail(&r);
	expect_ok(rq_ext(cx->dev, VIDIOC_S_EXT_CTRLS, req, a, new_a, NULL), "S_EXT_CTRLS %s into a request", a->slug);
	carry_payloads(cx, req);
	if (rq_stream_start(&r))
		ck_abort_msg("streaming the request queue: %s", r.why);
	expect_ok(rq_queue_buffer(&r, req), "QBUF with the request");
	expect_ok(rq_queue(req), "MEDIA_REQUEST_IOC_QUEUE");
	int e = rq_wait(req, RQ_COMPLETE_MS);
	for (unsigned k = 1; e == ETIMEDOUT && k < r.nbufs; k++) {
		/* The driver may need more buffers before it starts: give it empty requests. */
		int more = alloc_or_fail(&r);
		if (rq_queue_buffer(&r, more) || rq_queue(more))
			break;
		e = rq_wait(req, RQ_COMPLETE_MS);
	}
	expect_ok(e, "waiting %d ms for the request to complete (POLLPRI)", RQ_COMPLETE_MS);
	int64_t got = 0;
	expect_ok(rq_ext(cx->dev, VIDIOC_G_EXT_CTRLS, req, a, 0, &got), "G_EXT_CTRLS of the completed request (RQ-5)");
	expect_eq(got, new_a, "%s in the completed request: the value it applied (RQ-5)", a->slug);
	expect_current(cx, a, new_a, "after the request that set it completed");
	if (b) {
		/* Set after completion: the request must still report the value b had then. */
		if (ctrl_other_value(b, cur_b, &new_b)) {
			int64_t v = new_b;
			expect_ok(ctrl_set_scalar(cx->dev, b, &v), "setting %s after completion", b->slug);
		}
		e = rq_ext(cx->dev, VIDIOC_G_EXT_CTRLS, req, b, 0, &got);
		expect_ok(e, "G_EXT_CTRLS of %s, not set in the completed request (RQ-5)", b->slug);
		expect_eq(got, cur_b, "%s in the completed request that did not set it: its value at completion (RQ-5)",
			  b->slug);
		int64_t v = cur_b;
		ctrl_set_scalar(cx->dev, b, &v);
	}
	rq_stream_stop(&r);
	expect_ok(rq_reinit(req), "MEDIA_REQUEST_IOC_REINIT of a completed request");
	expect_errno(rq_ext(cx->dev, VIDIOC_G_EXT_CTRLS, req, a, 0, NULL), EACCES,
		     "G_EXT_CTRLS of a re-initialised request (RQ-5, media-request-ioc-reinit.rst)");
	int64_t v = cur_a;
	ctrl_set_scalar(cx->dev, a, &v);
	close(req);
	rq_close(&r);
}

static const struct check_def checks[] = {
	{ "request/no-support", "RQ-1", "a node without requests refuses which=REQUEST_VAL and changes nothing",
	  CHECK_PER_DEVICE, no_support, NULL, NULL, 10, .needs = NEEDS_EXT },
	{ "request/bad-fd", "RQ-2", "a negative, non-request or closed request_fd gives EINVAL",
	  CHECK_PER_DEVICE, bad_fd, NULL, NULL, 10, .needs = NEEDS_EXT },
	{ "request/deferred", "RQ-4", "S/TRY into an unqueued request succeed without touching current values; G of it gives EACCES",
	  CHECK_PER_DEVICE, deferred, NULL, NULL, 10, .needs = NEEDS_EXT },
	{ "request/queued", "RQ-4", "a queued request refuses S (EBUSY) and G (EACCES) and applies nothing yet",
	  CHECK_PER_DEVICE, queued, NULL, NULL, 20, .needs = NEEDS_EXT, .own_process = true },
	{ "request/completed", "RQ-5", "a completed request holds what it applied and the values it did not set; REINIT empties it",
	  CHECK_PER_DEVICE, completed, NULL, NULL, 30, .needs = NEEDS_EXT, .own_process = true },
};
SUITE(suite_request, "request", "Controls in requests", checks);
