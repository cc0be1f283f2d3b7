/* Latency and noise frames kept per node and run (probe_node.h). */
#include "image/probe_node.h"
#include "image/probe_judge.h"
#include "image/stats.h"
#include "check/run_opts.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char MAGIC[8] = "v4l2cN2";	/* N2: with the clip map (frame.h) */

/* Bytes of a kept frame: every plane, the clip map included. */
static size_t kept_bytes(const struct frame *f)
{
	return 2 * (size_t)f->width * f->height + 2 * (size_t)f->cw * f->ch;
}

/* keep-*: the files probe_node_clear() removes (excuse.c keeps one too). */
static bool path_of(const char *name, char *path, size_t len)
{
	if (!g_opts.scratch_dir)
		return false;
	snprintf(path, len, "%s/keep-%s", g_opts.scratch_dir, name);
	return true;
}

int probe_node_latency(void)
{
	char path[600];
	int v = -1;
	FILE *f;
	if (!path_of("probe-latency", path, sizeof(path)) || !(f = fopen(path, "r")))
		return -1;
	if (fscanf(f, "%d", &v) != 1 || v < 0)
		v = -1;
	fclose(f);
	return v;
}

void probe_node_keep_latency(int frames)
{
	char path[600];
	FILE *f;
	if (frames < 0 || probe_node_latency() >= 0 || !path_of("probe-latency", path, sizeof(path)))
		return;
	if ((f = fopen(path, "w"))) {
		fprintf(f, "%d\n", frames);
		fclose(f);
	}
}

double probe_node_tol_diff(const struct frame fr[PROBE_NOISE_FRAMES], const struct roi *r)
{
	double dsum = 0;
	for (int i = 1; i < PROBE_NOISE_FRAMES; i++)
		dsum += stats_frame_difference(&fr[i - 1], &fr[i], r);
	return JUDGE_HALF_CODE + JUDGE_NOISE_K * dsum / (PROBE_NOISE_FRAMES - 1);
}

static bool read_set(FILE *f, struct frame fr[PROBE_NOISE_FRAMES])
{
	char magic[8];
	unsigned hdr[3];
	if (fread(magic, 1, 8, f) != 8 || memcmp(magic, MAGIC, 8) || fread(hdr, sizeof(hdr[0]), 3, f) != 3)
		return false;
	for (int i = 0; i < PROBE_NOISE_FRAMES; i++) {
		if (frame_alloc(&fr[i], hdr[0], hdr[1]))
			return false;
		const size_t n = kept_bytes(&fr[i]);
		if (fread(fr[i].y, 1, n, f) != n)
			return false;
		fr[i].has_chroma = hdr[2] & 1;
		fr[i].has_clip = (hdr[2] >> 1) & 1;
		fr[i].seq_from_driver = false;
	}
	return true;
}

bool probe_node_noise(const struct frame *f, const struct roi *r, struct frame fr[PROBE_NOISE_FRAMES])
{
	for (int k = 0; k < PROBE_NODE_SCENES; k++) {
		char path[600], name[32];
		FILE *in;
		snprintf(name, sizeof(name), "probe-noise-%d", k);
		if (!path_of(name, path, sizeof(path)) || !(in = fopen(path, "rb")))
			return false;
		bool ok = read_set(in, fr);
		fclose(in);
		const struct frame *last = &fr[PROBE_NOISE_FRAMES - 1];
		if (ok && last->width == f->width && last->height == f->height && last->has_chroma == f->has_chroma &&
		    last->has_clip == f->has_clip &&
		    stats_frame_difference(last, f, r) <= probe_node_tol_diff(fr, r))
			return true;
	}
	return false;
}

void probe_node_keep_noise(const struct frame fr[PROBE_NOISE_FRAMES])
{
	for (int k = 0; k < PROBE_NODE_SCENES; k++) {
		char path[600], name[32];
		snprintf(name, sizeof(name), "probe-noise-%d", k);
		if (!path_of(name, path, sizeof(path)))
			return;
		if (access(path, F_OK) == 0)
			continue;
		/* written under another name, then renamed: a probe killed while
		 * writing leaves no half set behind */
		char tmp[620];
		snprintf(tmp, sizeof(tmp), "%s.part", path);
		FILE *out = fopen(tmp, "wb");
		if (!out)
			return;
		const unsigned hdr[3] = { fr[0].width, fr[0].height, fr[0].has_chroma | (unsigned)fr[0].has_clip << 1 };
		bool ok = fwrite(MAGIC, 1, 8, out) == 8 && fwrite(hdr, sizeof(hdr[0]), 3, out) == 3;
		for (int i = 0; i < PROBE_NOISE_FRAMES && ok; i++) {
			const size_t n = kept_bytes(&fr[i]);
			ok = fr[i].width == fr[0].width && fr[i].height == fr[0].height && fwrite(fr[i].y, 1, n, out) == n;
		}
		if (fclose(out) || !ok || rename(tmp, path))
			unlink(tmp);
		return;
	}
}

void probe_node_clear(const char *dir)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "keep-", 5)) {
			char path[1200];
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
}
