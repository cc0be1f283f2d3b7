/* The restore journal's pipeline part (journal.h): a sensor sub-device's run
 * changes links and pad formats of its media graph (spec SD-6); a run killed
 * mid-probe would leave them changed, and the next run would save the
 * changed pipeline as the state to return to. So the state found goes into
 * the journal with the controls, and the next run (or --restore) sets it
 * back before it saves its own. */
#include "run/journal.h"
#include "dev/device.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void journal_pipe_write(FILE *f, const struct journal_pipe *jp)
{
	if (!jp || !jp->saved || !jp->media)
		return;
	const struct pipe_saved *s = jp->saved;
	fprintf(f, "media %s\n", jp->media);
	for (int i = 0; i < s->nlinks; i++)
		fprintf(f, "link 0x%08" PRIx32 " %d\n", s->link[i], s->on[i] ? 1 : 0);
	for (int i = 0; i < s->npads; i++) {
		const struct v4l2_mbus_framefmt *m = &s->fmt[i];
		fprintf(f, "pad 0x%08" PRIx32 " %u %u %u %u %u %u %u %u\n", s->pad[i], m->code, m->width, m->height,
			m->field, m->colorspace, m->ycbcr_enc, m->quantization, m->xfer_func);
	}
	for (int i = 0; i < s->ncaps; i++) {
		const struct pipe_pix *p = &s->pix[i];
		fprintf(f, "cap 0x%08" PRIx32 " %u %u %u %u %u %u %u %u\n", s->cap[i], p->width, p->height, p->fourcc,
			p->field, p->colorspace, p->ycbcr_enc, p->quantization, p->xfer_func);
	}
}

int journal_pipe_parse(const char *line, struct journal *j)
{
	uint32_t id, v[9];
	int used = 0;
	if (!strncmp(line, "media ", 6)) {
		if (!line[6] || strlen(line + 6) >= sizeof(j->media))
			return -1;
		strcpy(j->media, line + 6);
		return 1;
	}
	if (!j->media[0])	/* the pipeline lines follow "media" */
		return strncmp(line, "link ", 5) && strncmp(line, "pad ", 4) && strncmp(line, "cap ", 4) ? 0 : -1;
	if (!j->pipe && !(j->pipe = calloc(1, sizeof(*j->pipe))))
		return -1;
	struct pipe_saved *s = j->pipe;
	if (sscanf(line, "link %" SCNx32 " %" SCNu32 "%n", &id, &v[0], &used) == 2 && !line[used] && v[0] <= 1) {
		if (s->nlinks >= PIPE_MAX)
			return -1;
		s->link[s->nlinks] = id;
		s->on[s->nlinks++] = v[0];
		return 1;
	}
	bool pad = !strncmp(line, "pad ", 4);
	if (sscanf(line + 4, "%" SCNx32 " %" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32
		   " %" SCNu32 " %" SCNu32 "%n", &id, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &used) != 9 || line[4 + used])
		return -1;
	if (pad && !strncmp(line, "pad ", 4)) {
		if (s->npads >= PIPE_MAX)
			return -1;
		s->pad[s->npads] = id;
		s->fmt[s->npads++] = (struct v4l2_mbus_framefmt){ .code = v[0], .width = v[1], .height = v[2],
			.field = v[3], .colorspace = v[4], .ycbcr_enc = (uint16_t)v[5], .quantization = (uint16_t)v[6],
			.xfer_func = (uint16_t)v[7] };
		return 1;
	}
	if (strncmp(line, "cap ", 4) || s->ncaps >= 8)
		return -1;
	s->cap[s->ncaps] = id;
	s->pix[s->ncaps++] = (struct pipe_pix){ v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] };
	return 1;
}

int journal_pipe_apply(const struct journal *j, const struct topo *t, const struct pipe_ops *o, char *why,
		       size_t len)
{
	if (!j->pipe)
		return 0;
	/* Graph ids hold while the media device stays registered: a driver
	 * reloaded since has other ones, and nothing is set then. */
	const struct pipe_saved *s = j->pipe;
	for (int i = 0; i < s->nlinks; i++)
		if (!topo_link(t, s->link[i]))
			return snprintf(why, len, "the graph has no link 0x%08x now (the driver was reloaded?)", s->link[i]),
			       ENOENT;
	for (int i = 0; i < s->npads; i++)
		if (!topo_pad(t, s->pad[i]))
			return snprintf(why, len, "the graph has no pad 0x%08x now (the driver was reloaded?)", s->pad[i]),
			       ENOENT;
	for (int i = 0; i < s->ncaps; i++)
		if (!topo_entity(t, s->cap[i]))
			return snprintf(why, len, "the graph has no entity 0x%08x now (the driver was reloaded?)", s->cap[i]),
			       ENOENT;
	int e = pipe_restore(t, o, j->pipe, why, len);
	if (!e && pipe_verify(t, o, j->pipe, why, len))
		e = EIO;
	return e;
}

int journal_recover_pipeline(const char *device)
{
	static bool done;
	char path[4200], err[4400], why[600];
	struct journal j;
	if (done || journal_path(device, path, sizeof(path)) || journal_read(path, &j, err, sizeof(err)))
		return 0;	/* none, or unusable: journal_recover() says so */
	done = true;
	int rc = 0;
	struct topo t;
	if (j.pipe) {
		struct pipe_dev pd;
		struct pipe_ops o;
		int e = topo_read(j.media, &t, why, sizeof(why)) ? EIO : 0;
		if (!e) {
			pipe_dev_init(&pd, &t, j.media, &o);
			e = journal_pipe_apply(&j, &t, &o, why, sizeof(why));
			pipe_dev_close(&pd);
			topo_free(&t);
		}
		if (e) {
			fprintf(stderr, "v4l2-conform: %s: the media pipeline (%s) of an interrupted run is not back as it "
				"was: %s\n", device, j.media, why);
			rc = -1;
		} else {
			printf("v4l2-conform: %s: restored the media pipeline (%s: %d links, %d pad formats, %d capture "
			       "formats) from the journal of an interrupted run (pid %d)\n", device, j.media, j.pipe->nlinks,
			       j.pipe->npads, j.pipe->ncaps, j.pid);
		}
	}
	journal_free(&j);
	return rc;
}
