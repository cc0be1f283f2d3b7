/* Persistence (spec section 13): values belong to the device, not to a file
 * handle; they survive close/open and are shared by every handle and
 * process. Memory-to-memory nodes keep them per handle instead (PE-2). */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void open_or_fail(const struct dev *proto, struct dev *d)
{
	v_open_again(proto, d, "again");
}

/* Set a value other than the current one (and than the default, when the
 * control has a third value) so that a re-applied default would show. */
static int64_t set_other(const struct check_ctx *cx, const struct dev *d)
{
	const struct ctrl *c = cx->ctrl;
	int64_t cur = 0, v;
	expect_ok(ctrl_get_scalar(d, c, &cur), "getting the current value");
	if (!ctrl_other_value(c, cur, &v))
		v_skip("the control has a single valid value");
	if (v == c->q.default_value) {
		int64_t alt;
		if (ctrl_other_value(c, v, &alt) && alt != cur && alt != c->q.default_value)
			v = alt;
	}
	int64_t set = v;
	int e = ctrl_set_scalar(d, c, &set);
	v_skip_if_inactive_refused(d, c->q.id, e);
	expect_ok(e, "setting %lld", (long long)v);
	int64_t got = 0;
	expect_ok(ctrl_get_scalar(d, c, &got), "reading back");
	expect_eq(got, v, "the value read back right after setting it");
	return v;
}

static void reopen(const struct check_ctx *cx)
{
	struct dev a, b;
	open_or_fail(cx->dev, &a);
	int64_t v = set_other(cx, &a);
	/* Close every handle of this process: the runner keeps none open. */
	dev_close(&a);
	dev_close((struct dev *)cx->dev);
	open_or_fail(cx->dev, &b);
	int64_t got = 0;
	expect_ok(ctrl_get_scalar(&b, cx->ctrl, &got), "G after reopening");
	if (dev_is_m2m(&b))
		expect_eq(got, cx->ctrl->q.default_value, "an m2m node starts each handle at the default (PE-2)");
	else
		ck_assert_msg(got == v, "expected %lld to survive closing every handle (PE-1), got %lld%s",
			      (long long)v, (long long)got,
			      got == cx->ctrl->q.default_value ? " (the default: re-applied on open?)" : "");
	dev_close(&b);
	ck_assert(dev_reopen(&b, (struct dev *)cx->dev) == 0);
}

static void two_handles(const struct check_ctx *cx)
{
	struct dev a, b;
	open_or_fail(cx->dev, &a);
	open_or_fail(cx->dev, &b);
	int64_t before = 0;
	expect_ok(ctrl_get_scalar(&b, cx->ctrl, &before), "G through the second handle");
	int64_t v = set_other(cx, &a);
	int64_t got = 0;
	expect_ok(ctrl_get_scalar(&b, cx->ctrl, &got), "G through the second handle after the set");
	if (dev_is_m2m(&a))
		expect_eq(got, before, "an m2m node keeps values per handle (PE-2)");
	else
		ck_assert_msg(got == v, "expected the value %lld set through one handle to be seen through another (PE-1), got %lld",
			      (long long)v, (long long)got);
	dev_close(&a);
	dev_close(&b);
}

/* What the other process saw. */
struct other_seen {
	const struct dev *proto;
	const struct ctrl *ctrl;
	int done, e_open, e;
	int64_t got;
};

/* In the other process: open the device and read the control. */
static int other_read(void *arg)
{
	struct other_seen *o = arg;
	struct dev b;
	o->e_open = dev_reopen(o->proto, &b) ? (errno ? errno : EIO) : 0;
	o->e = o->e_open ? 0 : ctrl_get_scalar(&b, o->ctrl, &o->got);
	o->done = 1;
	_exit(0);
}

/* Run other_read in another process and wait for it. That process shares
 * this one's memory (CLONE_VM, and CLONE_VFORK: this one waits meanwhile)
 * but not its file table: its handle is its own, opened by another process
 * as the kernel sees it, and it costs no copy of this process's page tables
 * and no copy-on-write faults after it, which made a fork most of this
 * check's time on an emulated board. Through libv4l2, which keeps a table
 * of its handles in memory, a fork, its answer in a shared page. */
static void in_other_process(struct other_seen *seen)
{
	pid_t pid;
	if (!seen->proto->libv4l2) {
		static char stack[64 * 1024] __attribute__((aligned(16)));
		pid = clone(other_read, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, seen);
		ck_assert_msg(pid > 0, "expected another process, got: %s", strerror(errno));
		waitpid(pid, NULL, 0);
		return;
	}
	struct other_seen *shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert(shared != MAP_FAILED);
	*shared = *seen;
	pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0)
		other_read(shared);
	waitpid(pid, NULL, 0);
	*seen = *shared;
	munmap(shared, sizeof(*shared));
}

static void other_process(const struct check_ctx *cx)
{
	struct dev a;
	open_or_fail(cx->dev, &a);
	int64_t v = set_other(cx, &a);
	struct other_seen o = { cx->dev, cx->ctrl, 0, -1, -1, 0 };
	in_other_process(&o);
	ck_assert_msg(o.done, "expected the other process to read the control, it ended first");
	expect_ok(o.e_open, "another process opening %s", cx->dev->path);
	expect_ok(o.e, "G from another process");
	if (dev_is_m2m(&a))
		expect_eq(o.got, cx->ctrl->q.default_value, "another process's m2m handle starts at the default (PE-2)");
	else
		ck_assert_msg(o.got == v, "expected another process to see %lld (PE-1), got %lld", (long long)v,
			      (long long)o.got);
	dev_close(&a);
}

static bool applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return ctrl_settable_scalar(c);
}

static const struct check_def checks[] = {
	{ "persist/reopen", "PE-1", "a non-default value survives closing every handle and reopening (m2m: per handle, PE-2)",
	  CHECK_PER_CONTROL, reopen, applies },
	{ "persist/two-handles", "PE-1", "a value set through one handle is seen through another open at the same time",
	  CHECK_PER_CONTROL, two_handles, applies },
	{ "persist/other-process", "PE-1", "a value set by one process is seen by another",
	  CHECK_PER_CONTROL, other_process, applies },
};
SUITE(suite_persist, "persist", "Persistence across handles and processes", checks);
