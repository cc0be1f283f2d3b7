/* Device access: opening a V4L2 node and issuing ioctls, raw or through
 * libv4l2 (which converts formats for the capture code). */
#ifndef V4L2C_DEVICE_H
#define V4L2C_DEVICE_H
#include <linux/videodev2.h>
#include <stdbool.h>
#include <stddef.h>

/* What kind of node this is, from what the node answers (dev_open): a video,
 * VBI, radio, SDR, touch or metadata node answers VIDIOC_QUERYCAP; a
 * sub-device node (dev-subdev.rst) answers VIDIOC_SUBDEV_QUERYCAP instead. */
enum dev_kind { DEV_KIND_VIDEO, DEV_KIND_SUBDEV };

struct dev {
	int fd;
	enum dev_kind kind;
	bool libv4l2;			/* ioctls go through libv4l2 */
	char path[256];
	struct v4l2_capability cap;
	unsigned int caps;		/* cap.device_caps, or cap.capabilities on old drivers;
					 * 0 on a sub-device node */
	unsigned int subdev_caps;	/* sub-device: v4l2_subdev_capability.capabilities */
};

/* Open `path` and make sure it is a V4L2 node: VIDIOC_QUERYCAP answers, or
 * VIDIOC_SUBDEV_QUERYCAP does (a sub-device node: kind DEV_KIND_SUBDEV, cap.driver
 * and cap.card filled from sysfs, the entity's name in cap.card).
 * Returns 0, or -1 with a one-line reason in err ("/dev/null: not a V4L2 device"). */
int dev_open(struct dev *d, const char *path, bool libv4l2, char *err, size_t errlen);
/* Another, independent file handle on the same node. */
int dev_reopen(const struct dev *proto, struct dev *d);
void dev_close(struct dev *d);

/* ioctl that returns 0 or the errno (never -1), retrying on EINTR. */
int dev_ioctl(const struct dev *d, unsigned long req, void *arg);
int xioctl(int fd, unsigned long req, void *arg);

bool dev_is_subdev(const struct dev *d);
/* What a sub-device node does not have, for skip reasons:
 * "a sub-device node (V4L2_SUBDEV_CAP_...): ..." */
const char *dev_kind_name(const struct dev *d);

/* Memory-to-memory nodes keep control values per file handle (spec PE-2). */
bool dev_is_m2m(const struct dev *d);
bool dev_can_capture(const struct dev *d);
bool dev_captures_pictures(const struct dev *d);

/* src into dst[n], cut to fit (sysfs and graph names may be longer than
 * QUERYCAP's fields). */
void copy_cut(char *dst, size_t n, const char *src);

/* errno name for messages: "EINVAL", "EACCES", "0" for success. */
const char *errno_name(int err);
#endif
