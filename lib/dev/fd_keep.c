/* Descriptors noted and the newer ones closed (fd_keep.h). */
#include "dev/fd_keep.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The descriptors open now, without the listing's own; returns how many
 * (at most max). */
static int list_fds(int *fds, int max)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max)
		if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d))
			fds[n++] = atoi(e->d_name);
	closedir(d);
	return n;
}

static const bool *base;

void fd_keep_use_base(const bool *open)
{
	base = open;
}

void fd_keep_note(struct fd_keep *k)
{
	int fds[FD_KEEP_MAX];
	if (base) {
		memcpy(k->open, base, sizeof(k->open));
		return;
	}
	memset(k, 0, sizeof(*k));
	for (int i = 0, n = list_fds(fds, FD_KEEP_MAX); i < n; i++)
		if (fds[i] >= 0 && fds[i] < FD_KEEP_MAX)
			k->open[fds[i]] = true;
}

void fd_keep_close_new(const struct fd_keep *k)
{
	int fds[FD_KEEP_MAX];
	for (int i = 0, n = list_fds(fds, FD_KEEP_MAX); i < n; i++)
		if (fds[i] > 2 && (fds[i] >= FD_KEEP_MAX || !k->open[fds[i]]))
			close(fds[i]);
}
