/* What a check says from inside its (forked) test process, beyond Check's
 * own pass/fail: warnings, run-time 'not applicable', measurements and
 * artifacts. Fail with ck_assert_msg()/ck_abort_msg() or the expect_*()
 * macros, whose messages say expected vs got. */
#ifndef V4L2C_VERDICT_H
#define V4L2C_VERDICT_H
#include <check.h>
#include <errno.h>
#include "dev/device.h"

/* The check passes in Check's terms but is reported as 'warn'. */
void v_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends the check now; reported as 'skip' with the reason, never as a pass.
 * For what can only be known at run time (a probe's scene cannot show the
 * effect: 'inconclusive'). Applicability known up front is decided at
 * registration instead. */
void v_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* A note appended to the check's message, whatever its verdict. */
void v_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A figure for reports: name, value, unit ("ms", "frames", "luma"). */
void v_measure(const char *name, double value, const char *unit);
/* One point of a named series (control value -> statistic) for plots. */
void v_point(const char *series, double x, double y);
/* A directory where this check may save files (frames on failure); the
 * relative path of each saved file is recorded with v_artifact(). */
const char *v_artifact_dir(void);
void v_artifact(const char *relpath);

/* The runner, in the test process, before a check runs: the record file
 * of the running instance and the run's artifact folder. Unbound, the
 * verdicts go nowhere and artifacts to /tmp (unit tests). */
void verdict_bind_record(const char *path);
void verdict_bind_artifacts(const char *dir);
/* How v_skip() ends the running check (the runner's batch_end_check(), which
 * does not return); unbound, the test process exits. */
void verdict_bind_end(void (*end)(void));

#define expect_errno(got, want, ...) do { int _g = (got), _w = (want); \
	if (_g != _w) ck_abort_msg("expected %s, got %s: %s", errno_name(_w), errno_name(_g), \
				   v_fmt(__VA_ARGS__)); } while (0)
#define expect_ok(got, ...) expect_errno(got, 0, __VA_ARGS__)
#define expect_eq(got, want, ...) do { long long _g = (got), _w = (want); \
	if (_g != _w) ck_abort_msg("expected %lld, got %lld: %s", _w, _g, v_fmt(__VA_ARGS__)); } while (0)
const char *v_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Opens proto's device once more into d, or fails the check with the
 * reason ("expected to open DEV <when>, got: DEV: cannot open: Invalid
 * argument"): an open that fails is itself the finding (v4l2loopback's
 * open() fails once a one-shot control is set). */
void v_open_again(const struct dev *proto, struct dev *d, const char *when);
/* FL-5: a driver that cannot cache an inactive control's value may refuse
 * writes to it with EACCES (uvcvideo does, for a manual control while its
 * auto control is on). When e is EACCES and the control is inactive now, the
 * control that makes it inactive goes to manual (ctrl/ctrl_manual.h) and
 * the check runs again from its start (v_run_check) on the active control,
 * where a refusal is the check's failure; the check ends as 'skip' only
 * when the control cannot be made active (the reason says why). Otherwise
 * this returns and the check judges e itself. */
void v_skip_if_inactive_refused(const struct dev *d, uint32_t id, int e);
/* Run a check so that v_skip_if_inactive_refused can run it again (the
 * runner's call; without it the refusal is a skip as before). */
struct check_ctx;
void v_run_check(void (*fn)(const struct check_ctx *), const struct check_ctx *cx);
#endif
