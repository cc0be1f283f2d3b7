/* The restore journal (see journal.h). */
#include "run/journal.h"
#include "ctrl/ctrl_type.h"
#include "dev/devlock.h"
#include "run/run_pipe.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC "v4l2-conform-journal 1"
#define OUT_NAME "restore-journal.txt"

int journal_path(const char *device, char *path, size_t len)
{
	char err[300];
	return devlock_file(device, ".journal", path, len, err, sizeof(err));
}

static int fsync_dir(const char *path)
{
	char copy[4096];
	snprintf(copy, sizeof(copy), "%s", path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int r = fsync(fd);
	close(fd);
	return r;
}

int journal_write(const char *path, const char *device, const struct ctrl_model *m, const struct snapshot *s,
		  const struct journal_pipe *jp)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, MAGIC "\ndevice %s\npid %d\n", device, (int)getpid());
	for (size_t i = 0; i < s->n && i < m->n; i++) {
		if (!s->saved[i])
			continue;
		const struct ctrl *c = &m->c[i];
		const struct ctrl_val *v = &s->val[i];
		fprintf(f, "ctrl 0x%08x %u ", c->q.id, c->q.type);
		if (v->p) {
			fprintf(f, "p %" PRIu32 " ", v->size);
			for (uint32_t b = 0; b < v->size; b++)
				fprintf(f, "%02x", ((const unsigned char *)v->p)[b]);
			fputc('\n', f);
		} else {
			fprintf(f, "v %" PRId64 "\n", v->v);
		}
	}
	journal_pipe_write(f, jp);
	if (fflush(f) || fsync(fileno(f))) {
		int e = errno;
		fclose(f);
		unlink(tmp);
		errno = e;
		return -1;
	}
	if (fclose(f) || rename(tmp, path))
		return -1;
	return fsync_dir(path);
}

static int hexval(int ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

static int parse_ctrl(char *line, struct journal_entry *e)
{
	char kind[2];
	int used = 0;
	memset(e, 0, sizeof(*e));
	if (sscanf(line, "ctrl %" SCNx32 " %" SCNu32 " %1s %n", &e->id, &e->type, kind, &used) != 3 || !used)
		return -1;
	char *rest = line + used, *end;
	if (kind[0] == 'v') {
		errno = 0;
		e->val.v = strtoll(rest, &end, 10);
		return errno || end == rest || *end ? -1 : 0;
	}
	if (kind[0] != 'p')
		return -1;
	unsigned long size = strtoul(rest, &end, 10);
	if (end == rest || *end != ' ' || size > (1u << 20) || strlen(end + 1) != 2 * size)
		return -1;
	e->val.size = (uint32_t)size;
	e->val.p = calloc(1, size ? size : 1);
	for (unsigned long b = 0; b < size; b++) {
		int hi = hexval(end[1 + 2 * b]), lo = hexval(end[2 + 2 * b]);
		if (hi < 0 || lo < 0)
			return -1;
		((unsigned char *)e->val.p)[b] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

int journal_parse(FILE *f, struct journal *j, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned n = 0;
	int rc = 0;
	memset(j, 0, sizeof(*j));
	while (!rc && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		n++;
		if (n == 1) {
			if (strcmp(line, MAGIC))
				rc = -1;
		} else if (!strncmp(line, "device ", 7)) {
			snprintf(j->device, sizeof(j->device), "%s", line + 7);
		} else if (!strncmp(line, "pid ", 4)) {
			j->pid = atoi(line + 4);
		} else if (strncmp(line, "ctrl ", 5)) {
			rc = journal_pipe_parse(line, j) == 1 ? 0 : -1;
		} else {
			j->e = realloc(j->e, (j->n + 1) * sizeof(*j->e));
			if (parse_ctrl(line, &j->e[j->n]))
				rc = -1;
			j->n++;	/* freed by journal_free, parsed or not */
		}
	}
	free(line);
	if (!n)
		rc = -1;
	if (rc) {
		snprintf(err, errlen, "line %u: not a v4l2-conform restore journal", n);
		journal_free(j);
	}
	return rc;
}

int journal_read(const char *path, struct journal *j, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	memset(j, 0, sizeof(*j));
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	char why[200];
	int rc = journal_parse(f, j, why, sizeof(why));
	fclose(f);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, why);
		errno = EINVAL;
	}
	return rc;
}

void journal_free(struct journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		ctrl_val_free(&j->e[i].val);
	free(j->e);
	free(j->pipe);
	memset(j, 0, sizeof(*j));
}

int journal_apply(const struct dev *d, const struct ctrl_model *m, const struct journal *j, char *report,
		  size_t len)
{
	/* The journal as a snapshot of this model: the same restore path. */
	struct snapshot s = { .n = m->n };
	s.val = calloc(m->n ? m->n : 1, sizeof(*s.val));
	s.saved = calloc(m->n ? m->n : 1, sizeof(*s.saved));
	for (size_t k = 0; k < j->n; k++)
		for (size_t i = 0; i < m->n; i++) {
			const struct ctrl *c = &m->c[i];
			if (c->q.id != j->e[k].id || c->q.type != j->e[k].type)
				continue;
			if (!!j->e[k].val.p != ctrl_has_payload(&c->q))
				break;
			ctrl_val_copy(c, &s.val[i], &j->e[k].val);
			s.saved[i] = true;
			break;
		}
	int left = snapshot_restore(d, m, &s, report, len);
	snapshot_free(&s);
	return left;
}

static void out_path(const char *out_dir, char *path, size_t len)
{
	snprintf(path, len, "%s/" OUT_NAME, out_dir);
}

int journal_recover(const struct dev *d, const struct ctrl_model *m, const char *device, bool *found)
{
	char path[4200], err[4400], report[2048];
	struct journal j;
	*found = false;
	if (journal_path(device, path, sizeof(path)))
		return 0;
	if (journal_read(path, &j, err, sizeof(err))) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "v4l2-conform: left-over restore journal unusable: %s\n", err);
		*found = true;
		return -1;
	}
	*found = true;
	int pipe_left = journal_recover_pipeline(device) ? 1 : 0;
	int left = journal_apply(d, m, &j, report, sizeof(report));
	if (left)
		printf("v4l2-conform: %s: restored from the journal of an interrupted run (pid %d, %s), "
		       "but %d controls still differ: %s\n", device, j.pid, path, left, report);
	else {
		printf("v4l2-conform: %s: restored %zu controls from the journal of an interrupted run (pid %d, %s)\n",
		       device, j.n, j.pid, path);
		unlink(path);
	}
	journal_free(&j);
	return left + pipe_left;
}

int journal_save(const char *device, const char *out_dir, const struct ctrl_model *m, const struct snapshot *s)
{
	char path[4200];
	int rc = 0;
	struct journal_pipe jp = { NULL, run_pipe_saved(&jp.media) };
	if (journal_path(device, path, sizeof(path)) || journal_write(path, device, m, s, &jp)) {
		fprintf(stderr, "v4l2-conform: warning: cannot write the restore journal %s: %s\n", path,
			strerror(errno));
		rc = -1;
	}
	out_path(out_dir, path, sizeof(path));
	if (journal_write(path, device, m, s, &jp))
		rc = -1;
	return rc;
}

void journal_done(const char *device, const char *out_dir)
{
	char path[4200];
	if (!journal_path(device, path, sizeof(path)))
		unlink(path);
	out_path(out_dir, path, sizeof(path));
	unlink(path);
}

int journal_restore_main(const struct dev *d, const struct ctrl_model *m, const char *device)
{
	bool found;
	int left = journal_recover(d, m, device, &found);
	if (!found) {
		char path[4200] = "";
		journal_path(device, path, sizeof(path));
		printf("v4l2-conform: %s: no restore journal (%s): nothing to restore\n", device, path);
		return 0;
	}
	return left < 0 ? 2 : left ? 1 : 0;
}
