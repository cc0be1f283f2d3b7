/* The checks' records in shared memory (see reclog.h). */
#include "run/reclog.h"
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/* Address space only: pages are taken as lines are written. A probe's
 * series are the largest records (hundreds of points); a batch of every
 * check of one definition fits many times over. */
#define RECLOG_BYTES ((size_t)64 << 20)

struct header {
	size_t used;		/* bytes of lines, published after the bytes */
	size_t dropped;
	unsigned long seq;
	size_t pos;
	pid_t pid;
	double started;
};

/* A line: its header then its text and a NUL, padded to 8 bytes. */
struct entry {
	uint32_t len;		/* of the text, NUL excluded */
	int32_t idx;
	char tag;
	char text[];
};

static struct header *hdr;
static char *data;
static size_t cap;

int reclog_init(void)
{
	if (hdr)
		return 0;
	void *p = mmap(NULL, RECLOG_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	hdr = p;
	data = (char *)p + 4096;
	cap = RECLOG_BYTES - 4096;
	return 0;
}

void reclog_reset(void)
{
	if (!hdr)
		return;
	__atomic_store_n(&hdr->used, 0, __ATOMIC_RELEASE);
	hdr->dropped = 0;
}

size_t reclog_dropped(void)
{
	return hdr ? hdr->dropped : 0;
}

void reclog_add(int idx, char tag, const char *text)
{
	if (!hdr || idx < 0)
		return;
	size_t len = strlen(text), used = hdr->used;
	size_t need = (sizeof(struct entry) + len + 1 + 7) & ~(size_t)7;
	if (len > UINT32_MAX || need > cap - used) {
		hdr->dropped++;
		return;
	}
	struct entry *e = (struct entry *)(data + used);
	e->len = (uint32_t)len;
	e->idx = idx;
	e->tag = tag;
	for (size_t i = 0; i < len; i++)
		e->text[i] = text[i] == '\n' ? ' ' : text[i];
	e->text[len] = 0;
	/* The line is complete before the runner can see it. */
	__atomic_store_n(&hdr->used, used + need, __ATOMIC_RELEASE);
}

bool reclog_next(size_t *pos, struct rec_line *out)
{
	if (!hdr || *pos >= __atomic_load_n(&hdr->used, __ATOMIC_ACQUIRE))
		return false;
	const struct entry *e = (const struct entry *)(data + *pos);
	out->idx = e->idx;
	out->tag = e->tag;
	out->text = e->text;
	*pos += (sizeof(struct entry) + e->len + 1 + 7) & ~(size_t)7;
	return true;
}

void reclog_started(size_t pos, pid_t pid, double t)
{
	if (!hdr)
		return;
	/* seq is odd while the fields change (a reader tries again). */
	__atomic_add_fetch(&hdr->seq, 1, __ATOMIC_ACQ_REL);
	hdr->pos = pos;
	hdr->pid = pid;
	hdr->started = t;
	__atomic_add_fetch(&hdr->seq, 1, __ATOMIC_RELEASE);
}

void reclog_progress(struct reclog_progress *p)
{
	memset(p, 0, sizeof(*p));
	if (!hdr)
		return;
	/* Bounded: a process killed between the two increments leaves seq odd. */
	for (int tries = 0; tries < 1000; tries++) {
		p->seq = __atomic_load_n(&hdr->seq, __ATOMIC_ACQUIRE);
		p->pos = hdr->pos;
		p->pid = hdr->pid;
		p->started = hdr->started;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(p->seq & 1) && __atomic_load_n(&hdr->seq, __ATOMIC_ACQUIRE) == p->seq)
			return;
	}
}
