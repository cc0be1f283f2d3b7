/* The running kernel's series, for the rules that depend on it. */
#include "ctrl/kseries.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

int kseries_parse(const char *release)
{
	char *end;
	long major = strtol(release, &end, 10);
	if (end == release || *end != '.' || major < 1)
		return 0;
	const char *m = end + 1;
	long minor = strtol(m, &end, 10);
	if (end == m || minor < 0 || minor > 999)
		return 0;
	return KSERIES(major, minor);
}

int kseries_running(void)
{
	static int series = -1;
	if (series < 0) {
		struct utsname u;
		series = uname(&u) == 0 ? kseries_parse(u.release) : 0;
	}
	return series;
}

const char *kseries_str(int series)
{
	static char buf[16];
	if (!series)
		return "unknown";
	snprintf(buf, sizeof(buf), "%d.%d", series / 1000, series % 1000);
	return buf;
}

bool kseries_has_minmax(void)
{
	return kseries_running() >= KSERIES_MINMAX;
}
