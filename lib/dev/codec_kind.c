/* The codec kind of a memory-to-memory node (codec_kind.h). */
#include "dev/codec_kind.h"
#include <linux/videodev2.h>
#include <string.h>

/* pixfmt-compressed.rst (7.3): the formats "for stateless decoders". Some
 * are newer than the oldest headers this builds against: by value. */
static const uint32_t stateless_fourccs[] = {
	v4l2_fourcc('S', '2', '6', '4'),	/* V4L2_PIX_FMT_H264_SLICE */
	v4l2_fourcc('S', '2', '6', '5'),	/* V4L2_PIX_FMT_HEVC_SLICE */
	v4l2_fourcc('V', 'P', '8', 'F'),	/* V4L2_PIX_FMT_VP8_FRAME */
	v4l2_fourcc('V', 'P', '9', 'F'),	/* V4L2_PIX_FMT_VP9_FRAME */
	v4l2_fourcc('M', 'G', '2', 'S'),	/* V4L2_PIX_FMT_MPEG2_SLICE */
	v4l2_fourcc('S', 'F', 'W', 'H'),	/* V4L2_PIX_FMT_FWHT_STATELESS */
	v4l2_fourcc('A', 'V', '1', 'F'),	/* V4L2_PIX_FMT_AV1_FRAME */
};

bool codec_fourcc_is_stateless(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(stateless_fourccs) / sizeof(stateless_fourccs[0]); i++)
		if (stateless_fourccs[i] == fourcc)
			return true;
	return false;
}

void codec_queue_add(struct codec_queue *q, uint32_t fourcc, uint32_t fmt_flags)
{
	q->n++;
	if (fmt_flags & V4L2_FMT_FLAG_COMPRESSED) {
		q->compressed++;
		if (codec_fourcc_is_stateless(fourcc))
			q->stateless++;
	}
}

enum codec_kind codec_kind_of(bool m2m, const struct codec_queue *out, const struct codec_queue *cap)
{
	if (!m2m || !out->n || !cap->n)
		return CODEC_NONE;
	/* A node compressing on one side only is a codec; both or neither
	 * (a converter, a transcoder) is not one of these kinds. */
	if (out->compressed && !cap->compressed)
		return out->stateless == out->compressed ? CODEC_STATELESS_DECODER : CODEC_STATEFUL_DECODER;
	if (cap->compressed && !out->compressed)
		return CODEC_STATEFUL_ENCODER;
	return CODEC_NONE;
}

static void tally(const struct dev *d, uint32_t type, struct codec_queue *q)
{
	memset(q, 0, sizeof(*q));
	for (uint32_t i = 0; i < 256; i++) {
		struct v4l2_fmtdesc f = { .index = i, .type = type };
		if (dev_ioctl(d, VIDIOC_ENUM_FMT, &f))
			break;
		codec_queue_add(q, f.pixelformat, f.flags);
	}
}

enum codec_kind codec_kind_probe(const struct dev *d)
{
	if (!dev_is_m2m(d))
		return CODEC_NONE;
	const bool mplane = d->caps & V4L2_CAP_VIDEO_M2M_MPLANE;
	struct codec_queue out, cap;
	tally(d, mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE : V4L2_BUF_TYPE_VIDEO_OUTPUT, &out);
	tally(d, mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE, &cap);
	return codec_kind_of(true, &out, &cap);
}

const char *codec_kind_name(enum codec_kind k)
{
	switch (k) {
	case CODEC_STATEFUL_DECODER: return "stateful decoder";
	case CODEC_STATELESS_DECODER: return "stateless decoder";
	case CODEC_STATEFUL_ENCODER: return "stateful encoder";
	default: return "not a codec";
	}
}
