/* Failed assertions of the shared test process (see assert_catch.h). */
#include "run/assert_catch.h"
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The linker's names for Check's own functions under --wrap. */
void __real__ck_assert_failed(const char *file, int line, const char *expr, const char *msg, ...)
	__attribute__((noreturn));
void __real__mark_point(const char *file, int line);
void __wrap__ck_assert_failed(const char *file, int line, const char *expr, const char *msg, ...)
	__attribute__((noreturn));
void __wrap__mark_point(const char *file, int line);

static sigjmp_buf jb;
static volatile int armed;
/* Check formats the message into BUFSIZ bytes: the same text, the same cut. */
static char failure[BUFSIZ];

int assert_catch_armed(void)
{
	return armed;
}

int assert_catch_run(void (*fn)(int), int arg, char *msg, size_t len)
{
	int r = sigsetjmp(jb, 0);
	if (r == 0) {
		armed = 1;
		fn(arg);
	}
	armed = 0;
	if (r == 1 && len)
		snprintf(msg, len, "%s", failure);
	return r == 1;
}

void assert_catch_leave(void)
{
	siglongjmp(jb, 2);
}

void __wrap__ck_assert_failed(const char *file, int line, const char *expr, const char *msg, ...)
{
	char buf[BUFSIZ];
	/* As Check does it: the message formatted if there is one, else the
	 * expression's text. */
	if (msg) {
		va_list ap;
		va_start(ap, msg);
		vsnprintf(buf, sizeof(buf), msg, ap);
		va_end(ap);
	}
	if (!armed) {
		if (msg)
			__real__ck_assert_failed(file, line, expr, "%s", buf);
		__real__ck_assert_failed(file, line, expr, NULL);
	}
	snprintf(failure, sizeof(failure), "%s", msg ? buf : expr);
	siglongjmp(jb, 1);
}

void __wrap__mark_point(const char *file, int line)
{
	if (!armed)
		__real__mark_point(file, line);
}
