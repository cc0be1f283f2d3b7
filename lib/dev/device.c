/* Device access. Every ioctl goes through dev_ioctl() so that libv4l2 can be
 * switched in for capture (format conversion) without touching the checks. */
#include "dev/device.h"
#include "dev/hang.h"
#include "dev/wedge.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libv4l2.h>
#include <linux/v4l2-subdev.h>
#include <sys/sysmacros.h>

int xioctl(int fd, unsigned long req, void *arg)
{
	int r;
	do r = ioctl(fd, req, arg); while (r == -1 && errno == EINTR);
	return r == -1 ? errno : 0;
}

int dev_ioctl(const struct dev *d, unsigned long req, void *arg)
{
	int r;
	/* A control known to hang is not asked again (hang.h). */
	if (hang_before(req, arg))
		return DEV_EHUNG;
	/* The ioctl in flight, for a timeout to name (wedge.h, hang.h). */
	wedge_ioctl_begin(req);
	hang_ioctl_begin(req, arg);
	do
		r = d->libv4l2 ? v4l2_ioctl(d->fd, req, arg) : ioctl(d->fd, req, arg);
	while (r == -1 && errno == EINTR && !hang_expired());
	bool timed_out = r == -1 && errno == EINTR;
	r = timed_out ? DEV_EHUNG : r == -1 ? errno : 0;
	hang_ioctl_end(timed_out);
	wedge_ioctl_end();
	return r;
}

void copy_cut(char *dst, size_t n, const char *src)
{
	size_t l = strnlen(src, n - 1);
	memcpy(dst, src, l);
	dst[l] = 0;
}

/* One line of sysfs text (the node's name, its driver) into buf; "" if absent. */
static void sysfs_line(const struct stat *st, const char *what, char *buf, size_t len)
{
	char p[128];
	buf[0] = 0;
	snprintf(p, sizeof(p), "/sys/dev/char/%u:%u/%s", major(st->st_rdev), minor(st->st_rdev), what);
	if (!strcmp(what, "device/driver")) {
		char link[256];
		ssize_t n = readlink(p, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = 0;
			const char *b = strrchr(link, '/');
			copy_cut(buf, len, b ? b + 1 : link);
		}
		return;
	}
	FILE *f = fopen(p, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* A sub-device node answers VIDIOC_SUBDEV_QUERYCAP (v4l2-subdev.c, since
 * Linux 5.10; vidioc-subdev-querycap.rst) instead of VIDIOC_QUERYCAP, which
 * it does not know (ENOTTY). It has no driver/card strings: the entity's
 * name and the driver come from sysfs, for the run's report. 0 if it is one. */
static int subdev_identify(struct dev *d, const struct stat *st)
{
	struct v4l2_subdev_capability sc;
	memset(&sc, 0, sizeof(sc));
	if (xioctl(d->fd, VIDIOC_SUBDEV_QUERYCAP, &sc))
		return -1;
	d->kind = DEV_KIND_SUBDEV;
	d->subdev_caps = sc.capabilities;
	d->cap.version = sc.version;
	char buf[64];
	sysfs_line(st, "device/driver", buf, sizeof(buf));
	copy_cut((char *)d->cap.driver, sizeof(d->cap.driver), buf[0] ? buf : "v4l2-subdev");
	sysfs_line(st, "name", buf, sizeof(buf));
	copy_cut((char *)d->cap.card, sizeof(d->cap.card), buf);
	snprintf((char *)d->cap.bus_info, sizeof(d->cap.bus_info), "v4l-subdev:%u:%u", major(st->st_rdev),
		 minor(st->st_rdev));
	return 0;
}

int dev_open(struct dev *d, const char *path, bool libv4l2, char *err, size_t errlen)
{
	struct stat st;
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	snprintf(d->path, sizeof(d->path), "%s", path);
	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a V4L2 device", path);
		return -1;
	}
	if (!S_ISCHR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a character device, not a V4L2 device", path);
		return -1;
	}
	/* O_NONBLOCK: DQBUF/DQEVENT must never block a check; waits use poll(). */
	wedge_ioctl_begin(WEDGE_OPEN);
	d->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	wedge_ioctl_end();
	if (d->fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	int e = xioctl(d->fd, VIDIOC_QUERYCAP, &d->cap);
	if (e == ENOTTY && !subdev_identify(d, &st))
		return 0;	/* a sub-device: libv4l2 has nothing to convert there */
	if (e) {
		snprintf(err, errlen, "%s: not a V4L2 device (VIDIOC_QUERYCAP: %s)", path, strerror(e));
		if (e == ENOTTY)
			snprintf(err, errlen, "%s: not a V4L2 device (VIDIOC_QUERYCAP and VIDIOC_SUBDEV_QUERYCAP: %s)",
				 path, strerror(e));
		close(d->fd);
		d->fd = -1;
		return -1;
	}
	d->caps = (d->cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? d->cap.device_caps
							       : d->cap.capabilities;
	if (libv4l2) {
		/* libv4l2 wraps the fd it is given; V4L2_DISABLE_CONVERSION is
		 * not set so capture gets converted formats. */
		if (v4l2_fd_open(d->fd, 0) < 0) {
			snprintf(err, errlen, "%s: libv4l2 refused the device: %s", path, strerror(errno));
			close(d->fd);
			d->fd = -1;
			return -1;
		}
		d->libv4l2 = true;
	}
	return 0;
}

int dev_reopen(const struct dev *proto, struct dev *d)
{
	char err[256];
	return dev_open(d, proto->path, proto->libv4l2, err, sizeof(err)) ? -1 : 0;
}

void dev_close(struct dev *d)
{
	if (d->fd < 0)
		return;
	if (d->libv4l2)
		v4l2_close(d->fd);
	else
		close(d->fd);
	d->fd = -1;
}

bool dev_is_subdev(const struct dev *d)
{
	return d->kind == DEV_KIND_SUBDEV;
}

const char *dev_kind_name(const struct dev *d)
{
	if (!dev_is_subdev(d))
		return "video node";
	return (d->subdev_caps & V4L2_SUBDEV_CAP_RO_SUBDEV) ? "read-only sub-device node" : "sub-device node";
}

bool dev_is_m2m(const struct dev *d)
{
	return d->caps & (V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE);
}

bool dev_can_capture(const struct dev *d)
{
	return d->caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE);
}

/* Frames that are pictures: a touch device (V4L2_CAP_TOUCH, dev-touch.rst)
 * also reports VIDEO_CAPTURE, but its frames are touch-sensor readings
 * (V4L2_TCH_FMT_*), which no picture probe can judge. */
bool dev_captures_pictures(const struct dev *d)
{
	return dev_can_capture(d) && !(d->caps & V4L2_CAP_TOUCH);
}

const char *errno_name(int err)
{
	switch (err) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case ERANGE: return "ERANGE";
	case EBUSY: return "EBUSY";
	case ENOSPC: return "ENOSPC";
	case EFAULT: return "EFAULT";
	case ENOTTY: return "ENOTTY";
	case ENOENT: return "ENOENT";
	case EIO: return "EIO";
	case EILSEQ: return "EILSEQ";
	case EPERM: return "EPERM";
	case ENODEV: return "ENODEV";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EBADR: return "EBADR";
	case ENXIO: return "ENXIO";
	case EBADF: return "EBADF";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EPIPE: return "EPIPE";
	case ENOLINK: return "ENOLINK";
	case DEV_EHUNG: return "no answer (the call hangs)";
	default: {
		static __thread char buf[24];
		snprintf(buf, sizeof(buf), "errno %d", err);
		return buf;
	}
	}
}
