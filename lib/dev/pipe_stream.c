/* Does a capture node stream as the pipeline is now (pipeline.h,
 * pipe_stream_try)? Buffers are queued before STREAMON: a driver that needs
 * some (vb2's min_queued_buffers) starts streaming, and so validates the
 * pipeline (vidioc-streamon.rst: EPIPE, ENOLINK), only once it has them.
 * No frame is waited for: the question is STREAMON's answer. */
#include "dev/pipeline.h"
#include "dev/device.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define NBUFS 4

int pipe_stream_try(const char *node, bool *streamon_ran, char *why, size_t len)
{
	*streamon_ran = false;
	int fd = open(node, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		snprintf(why, len, "opening %s: %s", node, errno_name(e));
		return e;
	}
	uint32_t type = pipe_cap_type(fd);
	struct v4l2_requestbuffers rb = { .count = NBUFS, .type = type, .memory = V4L2_MEMORY_MMAP };
	int e = xioctl(fd, VIDIOC_REQBUFS, &rb);
	if (e)
		snprintf(why, len, "VIDIOC_REQBUFS %u on %s: %s", NBUFS, node, errno_name(e));
	for (uint32_t i = 0; !e && i < rb.count; i++) {
		struct v4l2_plane planes[VIDEO_MAX_PLANES];
		struct v4l2_buffer b = { .index = i, .type = type, .memory = V4L2_MEMORY_MMAP };
		memset(planes, 0, sizeof(planes));
		if (type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
			b.m.planes = planes;
			b.length = VIDEO_MAX_PLANES;
		}
		if ((e = xioctl(fd, VIDIOC_QBUF, &b)))
			snprintf(why, len, "VIDIOC_QBUF %u on %s: %s", i, node, errno_name(e));
	}
	if (!e) {
		*streamon_ran = true;
		e = xioctl(fd, VIDIOC_STREAMON, &type);
		if (e)
			snprintf(why, len, "VIDIOC_STREAMON on %s: %s", node, errno_name(e));
		else
			xioctl(fd, VIDIOC_STREAMOFF, &type);
	}
	rb.count = 0;
	xioctl(fd, VIDIOC_REQBUFS, &rb);
	close(fd);
	return e;
}
