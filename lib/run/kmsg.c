#include "run/kmsg.h"
#include "run/kmsg_judge.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* kernel log time minus CLOCK_MONOTONIC, seconds */
static double clock_offset;

double kmsg_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The kernel stamps records with local_clock(), close to but not the same
 * as CLOCK_MONOTONIC: log a debug-level mark and read back its stamp. */
static void calibrate(int fd)
{
	char mark[80], rec[8192];
	int w = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (w < 0)
		return;
	snprintf(mark, sizeof(mark), "<7>v4l2-conform: clock mark %d", (int)getpid());
	double t0 = kmsg_clock();
	ssize_t wr = write(w, mark, strlen(mark));
	double t1 = kmsg_clock();
	close(w);
	if (wr < 0)
		return;
	for (int tries = 0; tries < 10000; tries++) {
		ssize_t r = read(fd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;
		if (r <= 0)
			return;
		rec[r] = 0;
		char *text = strchr(rec, ';'), *ts = strchr(rec, ',');
		if (text && ts && strstr(text, mark + 3)) {
			ts = strchr(ts + 1, ',');
			if (ts)
				clock_offset = strtod(ts + 1, NULL) / 1e6 - (t0 + t1) / 2;
			return;
		}
	}
}

int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		lseek(fd, 0, SEEK_END);
		calibrate(fd);
	}
	return fd;
}

size_t kmsg_read(int fd, struct kmsg_rec **out)
{
	char rec[8192];
	size_t n = 0, cap = 0;
	*out = NULL;
	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t r = read(fd, rec, sizeof(rec) - 1);
		if (r < 0) {
			if (errno == EPIPE)	/* overwritten records: go on */
				continue;
			break;		/* EAGAIN: nothing more */
		}
		rec[r] = 0;
		/* "prio,seq,usec,flags;text\n continuation lines" */
		char *text = strchr(rec, ';'), *ts = strchr(rec, ',');
		if (!text || !ts || !(ts = strchr(ts + 1, ',')))
			continue;
		text++;
		text[strcspn(text, "\n")] = 0;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			*out = realloc(*out, cap * sizeof(**out));
		}
		(*out)[n].level = atoi(rec) & 7;
		(*out)[n].t = strtod(ts + 1, NULL) / 1e6 - clock_offset;
		(*out)[n++].text = strdup(text);
	}
	return n;
}

void kmsg_free(struct kmsg_rec *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)r[i].text);
	free(r);
}
