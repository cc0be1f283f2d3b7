/* Persistence (spec section 13): values belong to the device, not to a file
 * handle; they survive close/open and are shared by every handle and
 * process. Memory-to-memory nodes keep them per handle instead (PE-2). */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include "check/registry.h"
#include "check/verdict.h"
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

static void other_process(const struct check_ctx *cx)
{
	struct dev a;
	open_or_fail(cx->dev, &a);
	int64_t v = set_other(cx, &a);
	int fds[2];
	ck_assert(pipe(fds) == 0);
	pid_t pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0) {
		struct dev b;
		int64_t got = 0;
		close(fds[0]);
		int e_open = dev_reopen(cx->dev, &b) ? (errno ? errno : EIO) : 0;
		int e = e_open ? 0 : ctrl_get_scalar(&b, cx->ctrl, &got);
		if (write(fds[1], &e_open, sizeof(e_open)) < 0 || write(fds[1], &e, sizeof(e)) < 0 ||
		    write(fds[1], &got, sizeof(got)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	int e_open = -1, e = -1;
	int64_t got = 0;
	ck_assert(read(fds[0], &e_open, sizeof(e_open)) == sizeof(e_open) && read(fds[0], &e, sizeof(e)) == sizeof(e) &&
		  read(fds[0], &got, sizeof(got)) == sizeof(got));
	close(fds[0]);
	waitpid(pid, NULL, 0);
	expect_ok(e_open, "another process opening %s", cx->dev->path);
	expect_ok(e, "G from another process");
	if (dev_is_m2m(&a))
		expect_eq(got, cx->ctrl->q.default_value, "another process's m2m handle starts at the default (PE-2)");
	else
		ck_assert_msg(got == v, "expected another process to see %lld (PE-1), got %lld", (long long)v,
			      (long long)got);
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
