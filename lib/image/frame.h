/* The in-memory frame every statistic works on, and the conversions into it
 * from the layouts the capture code reads natively.
 *
 * A frame is planar Y'CbCr 4:2:0: a full-resolution luma plane and two chroma
 * planes of ceil(w/2) x ceil(h/2) samples, all tightly packed (stride = plane
 * width). Y'CbCr sources keep the driver's sample values unchanged (chroma is
 * only averaged down to 4:2:0); RGB sources are converted with the BT.601
 * limited-range matrix, the encoding vivid and most webcams use for YUYV, so
 * the same picture gives the same statistics whatever layout carried it.
 * Greyscale sources get neutral chroma (128). */
#ifndef V4L2C_FRAME_H
#define V4L2C_FRAME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct frame {
	unsigned width, height;		/* luma plane */
	unsigned cw, ch;		/* chroma planes: (width+1)/2 x (height+1)/2 */
	uint8_t *y, *cb, *cr;		/* one allocation, y first */
	/* Per luma pixel, after cr in the same allocation: the share of the
	 * source's samples behind the pixel that sat at an end of the code
	 * range, 0 or 255, in FRAME_CLIP_ALL parts (has_clip; R', G', B' of an
	 * RGB pixel, the four samples of a binned Bayer cell). An R'G'B'
	 * source clamps each of R', G', B': a pixel clipped there may show no
	 * clip in Y'CbCr (a 75% bar whose red clamps at 255 has Y' 180), so the
	 * judges ask this map too. */
	uint8_t *clip;
	size_t alloc;			/* bytes allocated at y */
	bool has_chroma;		/* false: greyscale source, cb = cr = 128 */
	bool has_clip;			/* clip[] describes the source: R'G'B' and Bayer sources */
	uint32_t fourcc;		/* the layout the frame was converted from */
	uint32_t sequence;		/* the driver's sequence number (read(): a counter) */
	uint64_t timestamp_us;		/* the driver's timestamp (read(): CLOCK_MONOTONIC) */
	bool seq_from_driver;		/* false when sequence is our own counter */
};

/* A captured image as the device laid it out. Single-buffer multi-plane
 * layouts (NV12, YUV420) may give only plane[0]: the other planes then
 * follow it (at stride*height, with the format's chroma strides). */
struct raw_image {
	uint32_t fourcc;		/* V4L2_PIX_FMT_* */
	unsigned width, height;
	unsigned nplanes;		/* 1..3 */
	const uint8_t *plane[3];
	unsigned stride[3];		/* bytes per line; 0: the natural stride */
	size_t len[3];			/* bytes available in each plane */
};

/* Allocate (or reuse) the planes for w x h. 0 or ENOMEM/EINVAL. */
int frame_alloc(struct frame *f, unsigned w, unsigned h);
void frame_free(struct frame *f);
/* Deep copy (dst is allocated as needed). 0 or ENOMEM. */
int frame_copy(struct frame *dst, const struct frame *src);
/* Every plane set to one value (synthetic frames in tests and benchmarks). */
void frame_fill(struct frame *f, uint8_t y, uint8_t cb, uint8_t cr);

/* Layouts frame_convert() reads: YUYV, YVYU, UYVY, VYUY, NV12, NV21, YUV420,
 * YVU420, RGB24, BGR24, GREY (and the M variants NV12M, NV21M, YUV420M,
 * YVU420M with separate planes), and the 8-bit Bayer mosaics SBGGR8,
 * SGBRG8, SGRBG8, SRGGB8 of a raw capture node, each 2x2 cell binned into
 * one pixel of a half-size colour frame (frame_pack does not make them). */
bool frame_layout_native(uint32_t fourcc);
/* A Bayer mosaic: frame_convert() bins each 2x2 cell into one pixel. */
bool frame_layout_mosaic(uint32_t fourcc);
/* Bytes per line a layout has without padding (luma plane for planar). */
unsigned frame_natural_stride(uint32_t fourcc, unsigned width);
/* Bytes a single-buffer image of that layout needs with the given stride
 * (0 = natural); 0 for an unknown layout. */
size_t frame_image_size(uint32_t fourcc, unsigned width, unsigned height, unsigned stride);

/* Was pixel (x, y) clipped in the source's R'G'B' (false on Y'CbCr and
 * greyscale sources: their clip is seen in the frame's own samples)? */
#define FRAME_CLIP_ALL 12	/* divisible by 3 (R'G'B') and 4 (a Bayer cell) */
static inline bool frame_src_clipped(const struct frame *f, unsigned x, unsigned y)
{
	return f->has_clip && f->clip[(size_t)y * f->width + x];
}
/* The share (0..1) of that pixel's source samples at an end. */
static inline double frame_src_clip_share(const struct frame *f, unsigned x, unsigned y)
{
	return f->has_clip ? f->clip[(size_t)y * f->width + x] / (double)FRAME_CLIP_ALL : 0;
}

/* A frame interpolated from a mosaic (a debayered capture): each pixel's
 * colours come from the sites within `reach` pixels, so a pixel is as
 * clipped as the most clipped one within reach (a bar edge averaged from a
 * red site at 255 and one at 0 is 127, yet made of clamped samples). The
 * clip map is widened in place; nothing happens without one. */
void frame_clip_widen(struct frame *f, unsigned reach);

/* Convert r into f (allocated to r's size). 0, EINVAL (unknown layout, zero
 * size), EMSGSIZE (planes shorter than the layout needs) or ENOMEM. The
 * sequence/timestamp fields of f are left alone. */
int frame_convert(struct frame *f, const struct raw_image *r);

/* The opposite direction, for tests and benchmarks: lay f out as `fourcc`
 * into buf (single buffer, planes consecutive, given luma stride or 0).
 * RGB layouts use the BT.601 limited-range inverse, per pixel with the
 * 2x2 chroma sample. Returns bytes written, or 0 (unknown layout / short buf). */
size_t frame_pack(const struct frame *f, uint32_t fourcc, unsigned stride, uint8_t *buf, size_t buflen);

/* BT.601 limited-range conversions used by frame_convert/frame_pack (8-bit,
 * integer arithmetic, rounded). */
void frame_rgb_to_ycbcr(int r, int g, int b, uint8_t *y, uint8_t *cb, uint8_t *cr);
void frame_ycbcr_to_rgb(int y, int cb, int cr, uint8_t *r, uint8_t *g, uint8_t *b);

/* Write f as a binary PPM (RGB) or PGM (luma only) file: before/after
 * frames saved as artifacts when a probe fails. 0 or errno. */
int frame_write_pnm(const struct frame *f, const char *path);

/* "YUYV" for 0x56595559 (buf of at least 5 bytes). */
const char *frame_fourcc_str(uint32_t fourcc, char buf[5]);
#endif
