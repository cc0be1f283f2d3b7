#include "kmsg.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

int kmsg_collect(int fd, int max_level, char *buf, size_t len)
{
	char rec[8192];
	size_t o = 0;
	int n = 0;
	if (len)
		buf[0] = 0;
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
		int level = atoi(rec) & 7;
		char *text = strchr(rec, ';');
		if (!text || level > max_level)
			continue;
		text++;
		text[strcspn(text, "\n")] = 0;
		n++;
		if (o + 1 < len)
			o += (size_t)snprintf(buf + o, len - o, "%s\n", text);
	}
	return n;
}
