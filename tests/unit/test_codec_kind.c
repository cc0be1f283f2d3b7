/* Host unit tests: a memory-to-memory node's codec kind from what it reports
 * (lib/dev/codec_kind.c), which decides where QC-24 (7.3 control.rst:290-302:
 * MIN_BUFFERS required of stateful decoders and encoders) applies. The
 * formats are vicodec's and visl's (7.3 vicodec-core.c, visl-video.c) and a
 * converter's; the negative cases are the nodes QC-24 must leave alone. */
#include <check.h>
#include "unit.h"
#include <linux/videodev2.h>

#include "dev/codec_kind.h"

#define FWHT v4l2_fourcc('F', 'W', 'H', 'T')
#define SFWH v4l2_fourcc('S', 'F', 'W', 'H')
#define S264 v4l2_fourcc('S', '2', '6', '4')
#define YUYV v4l2_fourcc('Y', 'U', 'Y', 'V')
#define NV12 v4l2_fourcc('N', 'V', '1', '2')
#define C V4L2_FMT_FLAG_COMPRESSED

static struct codec_queue q(int n, const uint32_t *fourcc, const uint32_t *flags)
{
	struct codec_queue r = { 0 };
	for (int i = 0; i < n; i++)
		codec_queue_add(&r, fourcc[i], flags[i]);
	return r;
}

START_TEST(test_stateful_decoder_and_encoder)
{
	struct codec_queue fwht = q(1, (uint32_t[]){ FWHT }, (uint32_t[]){ C });
	struct codec_queue raw = q(2, (uint32_t[]){ YUYV, NV12 }, (uint32_t[]){ 0, 0 });
	ck_assert_int_eq(codec_kind_of(true, &fwht, &raw), CODEC_STATEFUL_DECODER);
	ck_assert_int_eq(codec_kind_of(true, &raw, &fwht), CODEC_STATEFUL_ENCODER);
}
END_TEST

START_TEST(test_stateless_decoder)
{
	struct codec_queue parsed = q(2, (uint32_t[]){ SFWH, S264 }, (uint32_t[]){ C, C });
	struct codec_queue raw = q(1, (uint32_t[]){ NV12 }, (uint32_t[]){ 0 });
	ck_assert_int_eq(codec_kind_of(true, &parsed, &raw), CODEC_STATELESS_DECODER);
	/* one stateful format among them: the node decodes statefully too */
	struct codec_queue mixed = q(2, (uint32_t[]){ SFWH, FWHT }, (uint32_t[]){ C, C });
	ck_assert_int_eq(codec_kind_of(true, &mixed, &raw), CODEC_STATEFUL_DECODER);
}
END_TEST

/* The nodes QC-24 must not judge: a converter (raw both ways), a transcoder
 * (compressed both ways), a node that is not M2M, a queue without formats. */
START_TEST(test_not_a_codec)
{
	struct codec_queue raw = q(1, (uint32_t[]){ YUYV }, (uint32_t[]){ 0 });
	struct codec_queue fwht = q(1, (uint32_t[]){ FWHT }, (uint32_t[]){ C });
	struct codec_queue none = { 0 };
	ck_assert_int_eq(codec_kind_of(true, &raw, &raw), CODEC_NONE);
	ck_assert_int_eq(codec_kind_of(true, &fwht, &fwht), CODEC_NONE);
	ck_assert_int_eq(codec_kind_of(false, &fwht, &raw), CODEC_NONE);
	ck_assert_int_eq(codec_kind_of(true, &fwht, &none), CODEC_NONE);
	/* the compressed flag decides, not the fourcc */
	struct codec_queue unflagged = q(1, (uint32_t[]){ FWHT }, (uint32_t[]){ 0 });
	ck_assert_int_eq(codec_kind_of(true, &unflagged, &raw), CODEC_NONE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("codec_kind");
	TCase *tc = tcase_create("codec_kind");
	tcase_add_test(tc, test_stateful_decoder_and_encoder);
	tcase_add_test(tc, test_stateless_decoder);
	tcase_add_test(tc, test_not_a_codec);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
