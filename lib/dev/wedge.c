/* A wedged device ends the run in bounded time (see wedge.h). */
#include "dev/wedge.h"
#include "dev/hang.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct wedge_page {
	volatile unsigned long in_flight;	/* ioctl request, 0: none */
	char check[256];			/* the check running (or last run) */
	int wedged;
	char msg[768];
};

static struct wedge_page *page;

void wedge_init(void)
{
	void *p = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		page = p;
		memset(page, 0, sizeof(*page));
	}
}

void wedge_ioctl_begin(unsigned long req)
{
	if (page)
		page->in_flight = req;
}

void wedge_ioctl_end(void)
{
	if (page)
		page->in_flight = 0;
}

const char *wedge_ioctl_name(unsigned long req, char *buf, size_t len)
{
#define N(x) { x, #x }
	static const struct { unsigned long req; const char *name; } names[] = {
		N(VIDIOC_QUERYCAP), N(VIDIOC_QUERYCTRL), N(VIDIOC_QUERY_EXT_CTRL), N(VIDIOC_QUERYMENU),
		N(VIDIOC_G_CTRL), N(VIDIOC_S_CTRL), N(VIDIOC_G_EXT_CTRLS), N(VIDIOC_S_EXT_CTRLS),
		N(VIDIOC_TRY_EXT_CTRLS), N(VIDIOC_SUBSCRIBE_EVENT), N(VIDIOC_UNSUBSCRIBE_EVENT), N(VIDIOC_DQEVENT),
		N(VIDIOC_G_PRIORITY), N(VIDIOC_S_PRIORITY), N(VIDIOC_G_FMT), N(VIDIOC_S_FMT), N(VIDIOC_TRY_FMT),
		N(VIDIOC_REQBUFS), N(VIDIOC_QUERYBUF), N(VIDIOC_QBUF), N(VIDIOC_DQBUF), N(VIDIOC_STREAMON),
		N(VIDIOC_STREAMOFF), N(VIDIOC_G_INPUT), N(VIDIOC_S_INPUT), N(VIDIOC_G_PARM), N(VIDIOC_S_PARM),
	};
#undef N
	if (req == WEDGE_OPEN)
		return "open";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].req == req)
			return names[i].name;
	snprintf(buf, len, "ioctl 0x%08lx", req);
	return buf;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the forked probe: any answer, error or not, is an answer. */
static void probe_child(const char *device)
{
	int fd = open(device, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		_exit(0);	/* an answer (the node may be gone): not wedged */
	struct v4l2_capability cap;
	/* Past a control whose query is known to hang (hang.h): that one
	 * sleeps until killed, the device still answers. */
	struct v4l2_queryctrl qc = { .id = hang_probe_start() | V4L2_CTRL_FLAG_NEXT_CTRL };
	ioctl(fd, VIDIOC_QUERYCAP, &cap);
	ioctl(fd, VIDIOC_QUERYCTRL, &qc);
	_exit(0);
}

void (*wedge_probe_child)(const char *device) = probe_child;
double wedge_probe_s = WEDGE_PROBE_S;

int wedge_probe(const char *device, double timeout_s, char *why, size_t len)
{
	pid_t c = fork();
	if (c < 0) {
		snprintf(why, len, "cannot fork a probe: %s", strerror(errno));
		return 0;	/* cannot tell: carry on */
	}
	if (c == 0) {
		wedge_probe_child(device);
		_exit(0);
	}
	double t0 = mono_s();
	while (mono_s() - t0 < timeout_s) {
		if (waitpid(c, NULL, WNOHANG) == c)
			return 0;
		usleep(20 * 1000);
	}
	/* Stuck in the driver: a kill may not take effect (uninterruptible
	 * sleep); never wait for it. */
	kill(c, SIGKILL);
	snprintf(why, len, "a fresh process got no answer to open, QUERYCAP and QUERYCTRL within %.0f s", timeout_s);
	return 1;
}

/* The last check ended inside an ioctl (or a process was left behind,
 * `anyway`): does the device still answer? */
static bool probe_after(const char *device, bool anyway)
{
	if (!page->in_flight && !anyway)
		return false;
	char buf[32], why[200];
	const char *what = page->in_flight ? wedge_ioctl_name(page->in_flight, buf, sizeof(buf)) : NULL;
	if (wedge_probe(device, wedge_probe_s, why, sizeof(why))) {
		if (what)
			snprintf(page->msg, sizeof(page->msg),
				 "the device stopped answering: %s ended inside %s (its timeout), and %s", page->check,
				 what, why);
		else
			snprintf(page->msg, sizeof(page->msg),
				 "the device stopped answering: a test process was left asleep in the kernel after %s, and %s",
				 page->check, why);
		page->wedged = 1;
		return true;
	}
	page->in_flight = 0;
	return false;
}

bool wedge_before_check(const char *device, const char *check)
{
	if (!page)
		return false;
	if (page->wedged)
		return true;
	/* The previous check was killed inside an ioctl: its timeout. */
	if (probe_after(device, false))
		return true;
	snprintf(page->check, sizeof(page->check), "%s", check);
	return false;
}

bool wedge_after_run(const char *device, bool anyway)
{
	if (!page)
		return false;
	return page->wedged || probe_after(device, anyway);
}

const char *wedge_reason(void)
{
	return page && page->wedged ? page->msg : "";
}

bool wedge_detected(char *msg, size_t len)
{
	if (!page || !page->wedged)
		return false;
	snprintf(msg, len, "%s", page->msg);
	return true;
}
