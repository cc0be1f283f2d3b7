/* What kind of codec a memory-to-memory node is, from what it reports:
 * QUERYCAP's M2M caps and the pixel formats ENUM_FMT gives on each queue.
 * A decoder takes compressed formats on its OUTPUT queue and gives raw ones
 * on CAPTURE (7.3 dev-decoder.rst, dev-stateless-decoder.rst); an encoder
 * the other way round (dev-encoder.rst). A decoder is stateless when every
 * compressed format it takes is one pixfmt-compressed.rst documents for
 * stateless decoders (parsed slices or frames plus their controls). */
#ifndef V4L2C_DEV_CODEC_KIND_H
#define V4L2C_DEV_CODEC_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/device.h"

enum codec_kind { CODEC_NONE, CODEC_STATEFUL_DECODER, CODEC_STATELESS_DECODER, CODEC_STATEFUL_ENCODER };

/* The formats of one queue, as far as the kind depends on them. */
struct codec_queue {
	unsigned int n;		/* formats enumerated */
	unsigned int compressed;	/* with V4L2_FMT_FLAG_COMPRESSED */
	unsigned int stateless;		/* of those, stateless-decoder formats */
};

/* Pure: the kind of a node from its M2M caps and its two queues' formats. */
enum codec_kind codec_kind_of(bool m2m, const struct codec_queue *output, const struct codec_queue *capture);
/* A fourcc pixfmt-compressed.rst documents for stateless decoders. */
bool codec_fourcc_is_stateless(uint32_t fourcc);
/* Add one enumerated format to a queue's tally. */
void codec_queue_add(struct codec_queue *q, uint32_t fourcc, uint32_t fmt_flags);
/* The node's kind: ENUM_FMT on its OUTPUT and CAPTURE queues (single- or
 * multi-planar, as its caps say). CODEC_NONE for anything but an M2M node. */
enum codec_kind codec_kind_probe(const struct dev *d);
const char *codec_kind_name(enum codec_kind k);

#endif
