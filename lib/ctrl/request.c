/* The request API plumbing for control checks; see request.h. Everything is
 * decided from what the node reports: its media device from sysfs, request
 * support from the queue's capabilities (V4L2_BUF_CAP_SUPPORTS_REQUESTS). */
#include "ctrl/request.h"
#include "dev/device.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static bool mplane_type(uint32_t t)
{
	return t == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE || t == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
}

/* Does the media graph at path list an interface with this major:minor?
 * MEDIA_IOC_G_TOPOLOGY alone, of the interfaces alone: nothing else is
 * asked of a media device here (a driver whose media device has neither a
 * driver_name nor a bound driver oopses in MEDIA_IOC_DEVICE_INFO on 6.1,
 * media_device_get_info; the fixture's request personality did). */
static bool graph_has_node(const char *path, unsigned maj, unsigned min)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct media_v2_topology t;
	memset(&t, 0, sizeof(t));
	bool found = false;
	if (!xioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t) && t.num_interfaces) {
		struct media_v2_interface *in = calloc(t.num_interfaces, sizeof(*in));
		uint32_t n = t.num_interfaces;
		memset(&t, 0, sizeof(t));
		t.num_interfaces = n;
		t.ptr_interfaces = (uintptr_t)in;
		if (in && !xioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t))
			for (uint32_t i = 0; i < t.num_interfaces && i < n && !found; i++)
				found = in[i].devnode.major == maj && in[i].devnode.minor == min;
		free(in);
	}
	close(fd);
	return found;
}

/* The media device of the node: one whose topology lists the node's
 * interface. The parent device in sysfs alone does not say which: vivid
 * makes every instance under one platform device (vivid.0 holds media0 and
 * media1, and the nodes of both), so the first media device there may be
 * another instance's, whose requests the node refuses (EINVAL). Without a
 * graph that names it, the first media device under the parent. */
static int find_media(struct rq_dev *r)
{
	struct stat st;
	if (fstat(r->d->fd, &st) || !S_ISCHR(st.st_mode))
		return -1;
	char dir[96], first[sizeof(r->media_path)] = "";
	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u/device", major(st.st_rdev), minor(st.st_rdev));
	DIR *dp = opendir(dir);
	if (!dp)
		return -1;
	struct dirent *de;
	r->media_path[0] = 0;
	while ((de = readdir(dp))) {
		unsigned n;
		char tail, path[sizeof(r->media_path)];
		if (sscanf(de->d_name, "media%u%c", &n, &tail) != 1)
			continue;
		snprintf(path, sizeof(path), "/dev/media%u", n);
		if (!first[0])
			snprintf(first, sizeof(first), "%s", path);
		if (graph_has_node(path, major(st.st_rdev), minor(st.st_rdev))) {
			snprintf(r->media_path, sizeof(r->media_path), "%s", path);
			break;
		}
	}
	closedir(dp);
	if (!r->media_path[0])
		snprintf(r->media_path, sizeof(r->media_path), "%s", first);
	return r->media_path[0] ? open(r->media_path, O_RDWR | O_CLOEXEC) : -1;
}

/* REQBUFS count 0 reports the queue's capabilities without allocating. */
static bool queue_takes_requests(const struct dev *d, uint32_t type)
{
	struct v4l2_requestbuffers rb = { .count = 0, .type = type, .memory = V4L2_MEMORY_MMAP };
	if (dev_ioctl(d, VIDIOC_REQBUFS, &rb))
		return false;
	return rb.capabilities & V4L2_BUF_CAP_SUPPORTS_REQUESTS;
}

int rq_open(const struct dev *d, struct rq_dev *r)
{
	memset(r, 0, sizeof(*r));
	r->d = d;
	r->media_fd = find_media(r);
	/* The output queue first: stateless decoders take requests there. */
	static const struct { uint32_t cap, type; } q[] = {
		{ V4L2_CAP_VIDEO_OUTPUT_MPLANE | V4L2_CAP_VIDEO_M2M_MPLANE, V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE },
		{ V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_M2M, V4L2_BUF_TYPE_VIDEO_OUTPUT },
		{ V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_VIDEO_M2M_MPLANE, V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE },
		{ V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_M2M, V4L2_BUF_TYPE_VIDEO_CAPTURE },
	};
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]) && !r->supports; i++)
		if ((d->caps & q[i].cap) && queue_takes_requests(d, q[i].type)) {
			r->buf_type = q[i].type;
			r->supports = true;
		}
	if (!r->supports)
		snprintf(r->why, sizeof(r->why), "no buffer queue of the node reports V4L2_BUF_CAP_SUPPORTS_REQUESTS");
	else if (r->media_fd < 0) {
		r->supports = false;
		snprintf(r->why, sizeof(r->why), "a queue supports requests but the node has no media device in sysfs");
	}
	return 0;
}

void rq_close(struct rq_dev *r)
{
	rq_stream_stop(r);
	if (r->media_fd >= 0)
		close(r->media_fd);
	r->media_fd = -1;
}

int rq_alloc(const struct rq_dev *r)
{
	int fd = -1;
	if (r->media_fd < 0)
		return -ENODEV;
	if (ioctl(r->media_fd, MEDIA_IOC_REQUEST_ALLOC, &fd))
		return -errno;
	return fd;
}

static int req_ioctl(int req, unsigned long cmd)
{
	return xioctl(req, cmd, NULL);
}

int rq_queue(int req)
{
	return req_ioctl(req, MEDIA_REQUEST_IOC_QUEUE);
}

int rq_reinit(int req)
{
	return req_ioctl(req, MEDIA_REQUEST_IOC_REINIT);
}

int rq_wait(int req, int ms)
{
	struct pollfd p = { .fd = req, .events = POLLPRI };
	int n;
	do
		n = poll(&p, 1, ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno;
	if (n == 0)
		return ETIMEDOUT;
	return (p.revents & POLLPRI) ? 0 : EIO;
}

int rq_stream_start(struct rq_dev *r)
{
	struct v4l2_requestbuffers rb = { .count = RQ_MAX_BUFS, .type = r->buf_type, .memory = V4L2_MEMORY_MMAP };
	int e = dev_ioctl(r->d, VIDIOC_REQBUFS, &rb);
	if (e || rb.count == 0) {
		snprintf(r->why, sizeof(r->why), "REQBUFS %u MMAP buffers: %s", RQ_MAX_BUFS, errno_name(e));
		return e ? e : ENOMEM;
	}
	r->nbufs = rb.count;
	r->next_buf = 0;
	int t = r->buf_type;
	e = dev_ioctl(r->d, VIDIOC_STREAMON, &t);
	if (e) {
		snprintf(r->why, sizeof(r->why), "STREAMON: %s", errno_name(e));
		rq_stream_stop(r);
		return e;
	}
	r->streaming = true;
	return 0;
}

int rq_queue_buffer(struct rq_dev *r, int req)
{
	if (r->next_buf >= r->nbufs)
		return ENOBUFS;
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b = { .index = r->next_buf, .type = r->buf_type, .memory = V4L2_MEMORY_MMAP };
	memset(planes, 0, sizeof(planes));
	if (mplane_type(r->buf_type)) {
		b.m.planes = planes;
		b.length = VIDEO_MAX_PLANES;
	}
	int e = dev_ioctl(r->d, VIDIOC_QUERYBUF, &b);
	if (e)
		return e;
	/* An output buffer needs bytesused; its content does not matter to the controls. */
	if (!mplane_type(r->buf_type))
		b.bytesused = b.length;
	else
		for (unsigned i = 0; i < b.length; i++)
			planes[i].bytesused = planes[i].length;
	b.flags = V4L2_BUF_FLAG_REQUEST_FD;
	b.request_fd = req;
	b.field = V4L2_FIELD_NONE;
	e = dev_ioctl(r->d, VIDIOC_QBUF, &b);
	if (!e)
		r->next_buf++;
	return e;
}

void rq_stream_stop(struct rq_dev *r)
{
	if (!r->d || !r->nbufs)
		return;
	int t = r->buf_type;
	if (r->streaming)
		dev_ioctl(r->d, VIDIOC_STREAMOFF, &t);
	struct v4l2_requestbuffers rb = { .count = 0, .type = r->buf_type, .memory = V4L2_MEMORY_MMAP };
	dev_ioctl(r->d, VIDIOC_REQBUFS, &rb);
	r->streaming = false;
	r->nbufs = 0;
}
