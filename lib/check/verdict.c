/* Test-process side of the verdicts. Each line goes to the record of the
 * running check instance (the runner's record log, lib/run/reclog.h), which
 * the runner reads after the test process is gone, so whatever was recorded
 * before a crash or a timeout survives. */
#include "check/verdict.h"
#include "ctrl/ctrl_manual.h"
#include "check/registry.h"
#include "dev/fd_keep.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set by the runner (verdict_bind_*): the verdicts know where to write,
 * not who runs them. */
static char cur_artifacts[1024];
static void (*sink)(char tag, const char *text);

static void (*end_check)(void);

void verdict_bind_end(void (*end)(void))
{
	end_check = end;
}

void verdict_bind_sink(void (*to)(char tag, const char *text))
{
	sink = to;
}

void verdict_bind_artifacts(const char *dir)
{
	snprintf(cur_artifacts, sizeof(cur_artifacts), "%s", dir ? dir : "");
}

static void record(char tag, const char *text)
{
	if (sink)
		sink(tag, text);
}

static void vrecord(char tag, const char *fmt, va_list ap)
{
	char buf[2048];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	record(tag, buf);
}

void v_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vrecord('W', fmt, ap);
	va_end(ap);
}

void v_skip(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vrecord('S', fmt, ap);
	va_end(ap);
	/* The check ends here; Check sees it pass and the runner turns the
	 * 'S' record into a skip verdict. */
	if (end_check)
		end_check();
	_exit(0);
}

void v_info(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vrecord('I', fmt, ap);
	va_end(ap);
}

void v_measure(const char *name, double value, const char *unit)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s\t%.9g\t%s", name, value, unit ? unit : "");
	record('M', buf);
}

void v_point(const char *series, double x, double y)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s\t%.9g\t%.9g", series, x, y);
	record('P', buf);
}

const char *v_artifact_dir(void)
{
	static char dir[1024];
	const char *d = cur_artifacts[0] ? cur_artifacts : NULL;
	if (!d)
		return "/tmp";
	snprintf(dir, sizeof(dir), "%s", d);
	mkdir(dir, 0755);
	return dir;
}

void v_artifact(const char *relpath)
{
	record('A', relpath);
}

/* The check running (v_run_check), to run again once a refused inactive
 * control is made active; `made_active`: it was, in this check. */
static void (*run_fn)(const struct check_ctx *);
static const struct check_ctx *run_cx;
static jmp_buf run_again;
static bool made_active;
static struct fd_keep run_fds;	/* open when the check started: its own handle among them */

void v_run_check(void (*fn)(const struct check_ctx *), const struct check_ctx *cx)
{
	run_fn = fn;
	run_cx = cx;
	made_active = false;
	fd_keep_note(&run_fds);
	/* Its own handle, opened for it after the process's base set. */
	if (cx->dev && cx->dev->fd >= 0 && cx->dev->fd < FD_KEEP_MAX)
		run_fds.open[cx->dev->fd] = true;
	/* longjmp'd to from v_skip_if_inactive_refused: the check from its
	 * start, the control active now */
	setjmp(run_again);
	run_fn(run_cx);	/* the statics: a longjmp leaves no doubt about them */
	run_fn = NULL;
}

void v_skip_if_inactive_refused(const struct dev *d, uint32_t id, int e)
{
	struct v4l2_queryctrl q = { .id = id };
	char what[300];
	if (e != EACCES || dev_ioctl(d, VIDIOC_QUERYCTRL, &q) || !(q.flags & V4L2_CTRL_FLAG_INACTIVE))
		return;	/* refused while active: the caller fails it */
	if (!run_fn)
		v_skip("the driver refuses writes to this control while it is inactive (EACCES, allowed by FL-5)");
	if (made_active)
		v_skip("the driver refuses writes to this control while it is inactive (EACCES, allowed by FL-5), and "
		       "it is inactive again after its auto control was put in manual (the check changed it back)");
	/* Earn the excuse: the control judged active, its auto control in
	 * manual; the snapshot of the next check puts that back. */
	int r = ctrl_make_active(d, id, what, sizeof(what));
	if (r)
		v_skip("the driver refuses writes to this control while it is inactive (EACCES, allowed by FL-5), and it "
		       "cannot be made active: %s", what);
	made_active = true;
	/* The check's handle as it was opened: the first run's handles
	 * closed (a priority held, events subscribed), its own unsubscribed
	 * from every event (the auto control's change queued some) and at the
	 * default priority. */
	fd_keep_close_new(&run_fds);
	struct v4l2_event_subscription all = { .type = V4L2_EVENT_ALL };
	enum v4l2_priority prio = V4L2_PRIORITY_DEFAULT;
	dev_ioctl(run_cx->dev, VIDIOC_UNSUBSCRIBE_EVENT, &all);
	dev_ioctl(run_cx->dev, VIDIOC_S_PRIORITY, &prio);
	v_info("'%s' refused a write while inactive (EACCES, FL-5): %s, and the check ran again on the active "
	       "control", (const char *)q.name, what);
	longjmp(run_again, 1);
}

const char *v_fmt(const char *fmt, ...)
{
	static char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

void v_open_again(const struct dev *proto, struct dev *d, const char *when)
{
	char err[300];
	if (dev_open(d, proto->path, proto->libv4l2, err, sizeof(err)))
		ck_abort_msg("expected to open %s %s, got: %s", proto->path, when, err);
}
