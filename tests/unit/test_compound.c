/* Host unit tests of the compound payload rules (CP-1..CP-3): the tables
 * agree with the uapi structures, a mutation lands on its field only, the
 * defaults are judged, and the refusal/reserved judgements fail what the
 * documentation forbids (the negative cases of the compound checks). */
#include "ctrl/compound.h"
#include "ctrl/uapi_av1.h"
#include <check.h>
#include "unit.h"
#include <errno.h>
#include <linux/videodev2.h>
#include <string.h>

static const uint32_t types[] = {
	V4L2_CTRL_TYPE_H264_SPS, V4L2_CTRL_TYPE_H264_PPS, V4L2_CTRL_TYPE_H264_SCALING_MATRIX,
	V4L2_CTRL_TYPE_H264_SLICE_PARAMS, V4L2_CTRL_TYPE_H264_DECODE_PARAMS, V4L2_CTRL_TYPE_H264_PRED_WEIGHTS,
	V4L2_CTRL_TYPE_FWHT_PARAMS, V4L2_CTRL_TYPE_VP8_FRAME, V4L2_CTRL_TYPE_MPEG2_QUANTISATION,
	V4L2_CTRL_TYPE_MPEG2_SEQUENCE, V4L2_CTRL_TYPE_MPEG2_PICTURE, V4L2_CTRL_TYPE_VP9_COMPRESSED_HDR,
	V4L2_CTRL_TYPE_VP9_FRAME, V4L2_CTRL_TYPE_HEVC_DECODE_PARAMS, V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS,
};
static const size_t sizes[] = {
	sizeof(struct v4l2_ctrl_h264_sps), sizeof(struct v4l2_ctrl_h264_pps), sizeof(struct v4l2_ctrl_h264_scaling_matrix),
	sizeof(struct v4l2_ctrl_h264_slice_params), sizeof(struct v4l2_ctrl_h264_decode_params),
	sizeof(struct v4l2_ctrl_h264_pred_weights), sizeof(struct v4l2_ctrl_fwht_params), sizeof(struct v4l2_ctrl_vp8_frame),
	sizeof(struct v4l2_ctrl_mpeg2_quantisation), sizeof(struct v4l2_ctrl_mpeg2_sequence),
	sizeof(struct v4l2_ctrl_mpeg2_picture), sizeof(struct v4l2_ctrl_vp9_compressed_hdr), sizeof(struct v4l2_ctrl_vp9_frame),
	sizeof(struct v4l2_ctrl_hevc_decode_params), sizeof(struct v4l2_ctrl_hevc_slice_params),
};
#define NT (sizeof(types) / sizeof(types[0]))

/* Every row lies inside its structure, and an invalid value fits its field
 * (a value the field cannot hold would be truncated into a valid one). */
START_TEST(rows_inside_structures)
{
	for (size_t t = 0; t < NT; t++) {
		for (size_t i = 0; i < cp_bad_count(types[t]); i++) {
			const struct cp_bad *b = cp_bad_at(types[t], i);
			ck_assert_msg(b->off + b->width <= sizes[t], "%s", b->field);
			ck_assert(b->width == 1 || b->width == 2 || b->width == 4);
			ck_assert_msg(b->width == 4 || (uint64_t)b->value < (1ull << (8 * b->width)), "%s", b->field);
		}
		for (size_t i = 0; i < cp_reserved_count(types[t]); i++) {
			const struct cp_reserved *r = cp_reserved_at(types[t], i);
			ck_assert_msg(r->len > 0 && r->off + r->len <= sizes[t], "%s", r->field);
		}
		for (size_t i = 0; i < cp_default_count(types[t]); i++) {
			const struct cp_default *d = cp_default_at(types[t], i);
			ck_assert_msg((size_t)d->off + (d->width ? d->width : d->len) <= sizes[t], "%s", d->field);
		}
	}
	/* AV1, by the 6.12 uapi's numbers (uapi_av1.h): inside their sizes. */
	ck_assert_uint_eq(cp_bad_count(CP_AV1_SEQUENCE), 1);
	ck_assert_uint_lt(cp_bad_at(CP_AV1_SEQUENCE, 0)->off, CP_AV1_SEQUENCE_SIZE);
	ck_assert_uint_lt(cp_bad_at(CP_AV1_FILM_GRAIN, 0)->off, CP_AV1_FILM_GRAIN_SIZE);
	ck_assert_uint_lt(cp_default_at(CP_AV1_SEQUENCE, 0)->off, CP_AV1_SEQUENCE_SIZE);
}
END_TEST

/* The rows name the documented statements of the brief's types. */
START_TEST(documented_rows_present)
{
	ck_assert_uint_ge(cp_bad_count(V4L2_CTRL_TYPE_VP8_FRAME), 2);
	ck_assert_int_eq(cp_bad_at(V4L2_CTRL_TYPE_VP8_FRAME, 0)->src, CP_DOCUMENTED);
	ck_assert_int_eq(cp_bad_at(V4L2_CTRL_TYPE_H264_SPS, 0)->src, CP_FRAMEWORK);
	ck_assert_uint_eq(cp_reserved_count(V4L2_CTRL_TYPE_VP9_FRAME), 4);
	ck_assert_uint_eq(cp_reserved_count(V4L2_CTRL_TYPE_H264_SPS), 0);
	ck_assert_int_eq(cp_default_at(V4L2_CTRL_TYPE_MPEG2_QUANTISATION, 0)->src, CP_DOCUMENTED);
	ck_assert_int_eq(cp_default_at(V4L2_CTRL_TYPE_FWHT_PARAMS, 0)->src, CP_FRAMEWORK);
}
END_TEST

START_TEST(field_access)
{
	struct v4l2_ctrl_vp8_frame f;
	memset(&f, 0, sizeof(f));
	const struct cp_bad *b = cp_bad_at(V4L2_CTRL_TYPE_VP8_FRAME, 0);
	cp_field_set(&f, sizeof(f), b->off, b->width, (uint64_t)b->value);
	ck_assert_uint_eq(f.num_dct_parts, 3);
	ck_assert_uint_eq(cp_field_get(&f, sizeof(f), b->off, b->width), 3);
	f.num_dct_parts = 0;
	uint8_t zero[sizeof(f)] = { 0 };
	ck_assert(!memcmp(&f, zero, sizeof(f)));	/* nothing else was touched */
	struct v4l2_ctrl_fwht_params p = { .width = 0x12345678 };
	ck_assert_uint_eq(cp_field_get(&p, sizeof(p), offsetof(struct v4l2_ctrl_fwht_params, width), 4), 0x12345678);
	ck_assert_uint_eq(cp_field_get(&p, 4, 20, 4), 0);	/* outside: 0, no read past */
}
END_TEST

/* The zigzag table against the kernel's mpeg2_intra_quant_matrix (6.1
 * and 6.12 v4l2-ctrls-core.c, lines 93-102). */
START_TEST(mpeg2_intra_zigzag)
{
	const uint8_t *z = cp_mpeg2_default_intra();
	static const uint8_t kernel[64] = {
		8,  16, 16, 19, 16, 19, 22, 22, 22, 22, 22, 22, 26, 24, 26, 27,
		27, 27, 26, 26, 26, 26, 27, 27, 27, 29, 29, 29, 34, 34, 34, 29,
		29, 29, 27, 27, 29, 29, 32, 32, 34, 34, 37, 38, 37, 35, 35, 34,
		35, 38, 38, 40, 40, 40, 48, 48, 46, 46, 56, 56, 58, 69, 69, 83,
	};
	for (int i = 0; i < 64; i++)
		ck_assert_msg(z[i] == kernel[i], "zigzag position %d: %u, the kernel has %u", i, z[i], kernel[i]);
}
END_TEST

/* CP-1: a framework-initialised default passes, a driver's own value does
 * not, and which side the row is on decides fail or warn. */
START_TEST(defaults_judged)
{
	char got[96];
	struct v4l2_ctrl_mpeg2_quantisation q;
	memcpy(q.intra_quantiser_matrix, cp_mpeg2_default_intra(), 64);
	memset(q.non_intra_quantiser_matrix, 16, 64);
	for (size_t i = 0; i < cp_default_count(V4L2_CTRL_TYPE_MPEG2_QUANTISATION); i++)
		ck_assert(cp_default_holds(cp_default_at(V4L2_CTRL_TYPE_MPEG2_QUANTISATION, i), &q, sizeof(q), got, sizeof(got)));
	q.intra_quantiser_matrix[5] = 1;	/* a driver's flat matrix in place of the standard's */
	ck_assert(!cp_default_holds(cp_default_at(V4L2_CTRL_TYPE_MPEG2_QUANTISATION, 0), &q, sizeof(q), got, sizeof(got)));
	ck_assert_str_eq(got, "byte 5 = 1, expected 19");

	struct v4l2_ctrl_vp9_frame v;
	memset(&v, 0, sizeof(v));
	v.bit_depth = 8;
	v.flags = V4L2_VP9_FRAME_FLAG_X_SUBSAMPLING | V4L2_VP9_FRAME_FLAG_Y_SUBSAMPLING | V4L2_VP9_FRAME_FLAG_SHOW_FRAME;
	for (size_t i = 0; i < cp_default_count(V4L2_CTRL_TYPE_VP9_FRAME); i++)
		ck_assert(cp_default_holds(cp_default_at(V4L2_CTRL_TYPE_VP9_FRAME, i), &v, sizeof(v), got, sizeof(got)));
	v.flags = 0;	/* the mask: subsampling missing */
	ck_assert(!cp_default_holds(cp_default_at(V4L2_CTRL_TYPE_VP9_FRAME, 2), &v, sizeof(v), got, sizeof(got)));

	struct v4l2_ctrl_fwht_params f;
	memset(&f, 0, sizeof(f));
	ck_assert(!cp_default_holds(cp_default_at(V4L2_CTRL_TYPE_FWHT_PARAMS, 0), &f, sizeof(f), got, sizeof(got)));
	ck_assert_int_eq(cp_default_at(V4L2_CTRL_TYPE_FWHT_PARAMS, 0)->src, CP_FRAMEWORK);	/* a warning */
}
END_TEST

/* CP-2: the framework's answer passes; each documented way to get it wrong
 * fails; an undocumented refusal missing only warns. */
START_TEST(invalid_judged)
{
	char w[200];
	/* The framework: EINVAL, error_idx = the index, for TRY and S. */
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, false, EINVAL, 0, 0, 1, false, w, sizeof(w)), CPV_PASS);
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, true, EINVAL, 0, 0, 1, false, w, sizeof(w)), CPV_PASS);
	/* S may say count (the validation step failed). TRY may not. */
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, true, EINVAL, 1, 0, 1, false, w, sizeof(w)), CPV_PASS);
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, false, EINVAL, 1, 0, 1, false, w, sizeof(w)), CPV_FAIL);
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, true, EINVAL, 7, 0, 1, false, w, sizeof(w)), CPV_FAIL);
	/* Accepted: a documented invalid value fails, the framework's own warns. */
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, true, 0, 0, 0, 1, true, w, sizeof(w)), CPV_FAIL);
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, false, 0, 0, 0, 1, false, w, sizeof(w)), CPV_FAIL);
	ck_assert_int_eq(cp_judge_invalid(CP_FRAMEWORK, false, 0, 0, 0, 1, false, w, sizeof(w)), CPV_WARN);
	/* Refused but applied anyway; or the wrong errno. */
	ck_assert_int_eq(cp_judge_invalid(CP_FRAMEWORK, true, EINVAL, 0, 0, 1, true, w, sizeof(w)), CPV_FAIL);
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, true, EFAULT, 0, 0, 1, false, w, sizeof(w)), CPV_FAIL);
	ck_assert_int_eq(cp_judge_invalid(CP_DOCUMENTED, false, ERANGE, 0, 0, 1, false, w, sizeof(w)), CPV_WARN);
}
END_TEST

/* CP-3: refused or zeroed pass; kept or an odd errno fail. */
START_TEST(reserved_judged)
{
	char w[200];
	struct v4l2_ctrl_mpeg2_picture p;
	memset(&p, 0, sizeof(p));
	const struct cp_reserved *r = cp_reserved_at(V4L2_CTRL_TYPE_MPEG2_PICTURE, 0);
	ck_assert_int_eq(cp_reserved_nonzero(r, &p, sizeof(p)), -1);
	p.reserved[3] = 0x5a;
	ck_assert_int_eq(cp_reserved_nonzero(r, &p, sizeof(p)), 3);
	ck_assert_int_eq(cp_judge_reserved(0, -1, w, sizeof(w)), CPV_PASS);
	ck_assert_int_eq(cp_judge_reserved(EINVAL, -1, w, sizeof(w)), CPV_PASS);
	ck_assert_int_eq(cp_judge_reserved(0, 3, w, sizeof(w)), CPV_FAIL);
	ck_assert_int_eq(cp_judge_reserved(EBUSY, -1, w, sizeof(w)), CPV_FAIL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compound");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, rows_inside_structures);
	tcase_add_test(tc, documented_rows_present);
	tcase_add_test(tc, field_access);
	tcase_add_test(tc, mpeg2_intra_zigzag);
	tcase_add_test(tc, defaults_judged);
	tcase_add_test(tc, invalid_judged);
	tcase_add_test(tc, reserved_judged);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
