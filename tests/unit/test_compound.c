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
	V4L2_CTRL_TYPE_HEVC_PPS, V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY,
};
static const size_t sizes[] = {
	sizeof(struct v4l2_ctrl_h264_sps), sizeof(struct v4l2_ctrl_h264_pps), sizeof(struct v4l2_ctrl_h264_scaling_matrix),
	sizeof(struct v4l2_ctrl_h264_slice_params), sizeof(struct v4l2_ctrl_h264_decode_params),
	sizeof(struct v4l2_ctrl_h264_pred_weights), sizeof(struct v4l2_ctrl_fwht_params), sizeof(struct v4l2_ctrl_vp8_frame),
	sizeof(struct v4l2_ctrl_mpeg2_quantisation), sizeof(struct v4l2_ctrl_mpeg2_sequence),
	sizeof(struct v4l2_ctrl_mpeg2_picture), sizeof(struct v4l2_ctrl_vp9_compressed_hdr), sizeof(struct v4l2_ctrl_vp9_frame),
	sizeof(struct v4l2_ctrl_hevc_decode_params), sizeof(struct v4l2_ctrl_hevc_slice_params),
	sizeof(struct v4l2_ctrl_hevc_pps), sizeof(struct v4l2_ctrl_hdr10_mastering_display),
};
#define NT (sizeof(types) / sizeof(types[0]))

/* Every row lies inside its structure, and an invalid value fits its field
 * (a value the field cannot hold would be truncated into a valid one). */
static void rows_inside(uint32_t type, size_t size)
{
	for (size_t i = 0; i < cp_bad_count(type); i++) {
		const struct cp_bad *b = cp_bad_at(type, i);
		ck_assert_msg(b->off + b->width <= size, "%s", b->field);
		ck_assert(b->width == 1 || b->width == 2 || b->width == 4);
		ck_assert_msg(b->width == 4 || (uint64_t)b->value < (1ull << (8 * b->width)), "%s", b->field);
		ck_assert_msg(!b->pre_width || (b->pre_off + b->pre_width <= size && b->pre_width <= 8), "%s", b->field);
	}
	for (size_t i = 0; i < cp_reserved_count(type); i++) {
		const struct cp_reserved *r = cp_reserved_at(type, i);
		ck_assert_msg(r->len > 0 && r->off + r->len <= size, "%s", r->field);
	}
	for (size_t i = 0; i < cp_default_count(type); i++) {
		const struct cp_default *d = cp_default_at(type, i);
		ck_assert_msg((size_t)d->off + (d->width ? d->width : d->len) <= size, "%s", d->field);
	}
}

START_TEST(rows_inside_structures)
{
	for (size_t t = 0; t < NT; t++)
		rows_inside(types[t], sizes[t]);
	/* AV1, by the 6.12 uapi's numbers (uapi_av1.h): inside their sizes. */
	rows_inside(CP_AV1_SEQUENCE, CP_AV1_SEQUENCE_SIZE);
	rows_inside(CP_AV1_FRAME, CP_AV1_FRAME_SIZE);
	rows_inside(CP_AV1_FILM_GRAIN, CP_AV1_FILM_GRAIN_SIZE);
	ck_assert_uint_ge(cp_bad_count(CP_AV1_FRAME), 8);
	ck_assert_uint_eq(cp_reserved_count(CP_AV1_FRAME), 4);
	/* The tile group entry: nothing documented, nothing the framework
	 * checks (v4l2-ctrls-core.c: "case V4L2_CTRL_TYPE_AV1_TILE_GROUP_ENTRY:
	 * break;"), no row. */
	ck_assert_uint_eq(cp_bad_count(CP_AV1_TILE_GROUP_ENTRY) + cp_reserved_count(CP_AV1_TILE_GROUP_ENTRY) +
				  cp_default_count(CP_AV1_TILE_GROUP_ENTRY), 0);
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
	ck_assert_int_eq(cp_judge_reserved(0, -1, r->fw_keeps, w, sizeof(w)), CPV_PASS);
	ck_assert_int_eq(cp_judge_reserved(EINVAL, -1, r->fw_keeps, w, sizeof(w)), CPV_PASS);
	ck_assert_int_eq(cp_judge_reserved(0, 3, r->fw_keeps, w, sizeof(w)), CPV_FAIL);
	ck_assert_int_eq(cp_judge_reserved(EBUSY, -1, r->fw_keeps, w, sizeof(w)), CPV_FAIL);
	/* A field the framework itself keeps (HEVC, AV1): kept warns, zeroed
	 * or refused passes, an odd errno still fails. */
	const struct cp_reserved *h = cp_reserved_at(V4L2_CTRL_TYPE_HEVC_PPS, 0);
	ck_assert(h->fw_keeps);
	ck_assert_int_eq(cp_judge_reserved(0, 0, h->fw_keeps, w, sizeof(w)), CPV_WARN);
	ck_assert_int_eq(cp_judge_reserved(0, -1, h->fw_keeps, w, sizeof(w)), CPV_PASS);
	ck_assert_int_eq(cp_judge_reserved(EINVAL, -1, h->fw_keeps, w, sizeof(w)), CPV_PASS);
	ck_assert_int_eq(cp_judge_reserved(EBUSY, -1, h->fw_keeps, w, sizeof(w)), CPV_FAIL);
	struct v4l2_ctrl_hevc_pps pps;
	memset(&pps, 0, sizeof(pps));
	pps.reserved = 0x5a;
	ck_assert_int_eq(cp_reserved_nonzero(h, &pps, sizeof(pps)), 0);
}
END_TEST

/* The valid HDR10 mastering payload is inside every bound the framework
 * checks (v4l2-ctrls-core.c std_validate_compound, 6.1.192 and 6.12.118,
 * restated here); each HDR10 row breaks exactly one of them; no other
 * type has a builder. */
static bool hdr10_fw_valid(const struct v4l2_ctrl_hdr10_mastering_display *m)
{
	for (int i = 0; i < 3; i++)
		if (m->display_primaries_x[i] < V4L2_HDR10_MASTERING_PRIMARIES_X_LOW ||
		    m->display_primaries_x[i] > V4L2_HDR10_MASTERING_PRIMARIES_X_HIGH ||
		    m->display_primaries_y[i] < V4L2_HDR10_MASTERING_PRIMARIES_Y_LOW ||
		    m->display_primaries_y[i] > V4L2_HDR10_MASTERING_PRIMARIES_Y_HIGH)
			return false;
	if ((m->white_point_x || m->white_point_y) &&
	    (m->white_point_x < V4L2_HDR10_MASTERING_WHITE_POINT_X_LOW ||
	     m->white_point_x > V4L2_HDR10_MASTERING_WHITE_POINT_X_HIGH ||
	     m->white_point_y < V4L2_HDR10_MASTERING_WHITE_POINT_Y_LOW ||
	     m->white_point_y > V4L2_HDR10_MASTERING_WHITE_POINT_Y_HIGH))
		return false;
	uint32_t mx = m->max_display_mastering_luminance, mn = m->min_display_mastering_luminance;
	if (mx && (mx < V4L2_HDR10_MASTERING_MAX_LUMA_LOW || mx > V4L2_HDR10_MASTERING_MAX_LUMA_HIGH))
		return false;
	if (mn && (mn < V4L2_HDR10_MASTERING_MIN_LUMA_LOW || mn > V4L2_HDR10_MASTERING_MIN_LUMA_HIGH))
		return false;
	return !(mx == V4L2_HDR10_MASTERING_MAX_LUMA_LOW && mn == V4L2_HDR10_MASTERING_MIN_LUMA_HIGH);
}

START_TEST(hdr10_payload_builder)
{
	struct v4l2_ctrl_hdr10_mastering_display m;
	memset(&m, 0, sizeof(m));
	ck_assert(!hdr10_fw_valid(&m));	/* the zero default: refused by the framework itself */
	ck_assert(cp_valid_payload(V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, &m, sizeof(m)));
	ck_assert(hdr10_fw_valid(&m));
	size_t n = cp_bad_count(V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY);
	ck_assert_uint_ge(n, 5);
	for (size_t i = 0; i < n; i++) {
		struct v4l2_ctrl_hdr10_mastering_display v = m;
		const struct cp_bad *b = cp_bad_at(V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, i);
		cp_bad_apply(b, &v, sizeof(v));
		ck_assert_msg(!hdr10_fw_valid(&v), "%s = %lld is inside the framework's bounds", b->field, (long long)b->value);
	}
	/* Negative: a builder for no other type, a short buffer refused. */
	struct v4l2_ctrl_hdr10_cll_info cll;
	ck_assert(!cp_valid_payload(V4L2_CTRL_TYPE_HDR10_CLL_INFO, &cll, sizeof(cll)));
	ck_assert(!cp_valid_payload(V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, &m, sizeof(m) - 1));
}
END_TEST

/* A row with a precondition sets both fields, the precondition first; a
 * row without one touches its own field only. */
START_TEST(bad_row_precondition)
{
	struct v4l2_ctrl_hevc_slice_params sp;
	memset(&sp, 0, sizeof(sp));
	const struct cp_bad *l1 = NULL;
	for (size_t i = 0; i < cp_bad_count(V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS); i++)
		if (cp_bad_at(V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS, i)->pre_width)
			l1 = cp_bad_at(V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS, i);
	ck_assert_ptr_nonnull(l1);
	cp_bad_apply(l1, &sp, sizeof(sp));
	ck_assert_uint_eq(sp.slice_type, V4L2_HEVC_SLICE_TYPE_B);
	ck_assert_uint_eq(sp.num_ref_idx_l1_active_minus1, V4L2_HEVC_DPB_ENTRIES_NUM_MAX);
	struct v4l2_ctrl_hevc_pps pps;
	memset(&pps, 0, sizeof(pps));
	size_t tiles = 0;
	for (size_t i = 0; i < cp_bad_count(V4L2_CTRL_TYPE_HEVC_PPS); i++) {
		struct v4l2_ctrl_hevc_pps v = pps;
		const struct cp_bad *b = cp_bad_at(V4L2_CTRL_TYPE_HEVC_PPS, i);
		cp_bad_apply(b, &v, sizeof(v));
		ck_assert(v.flags & V4L2_HEVC_PPS_FLAG_TILES_ENABLED);
		ck_assert(v.num_tile_columns_minus1 >= sizeof(v.column_width_minus1) ||
			  v.num_tile_rows_minus1 >= sizeof(v.row_height_minus1));
		tiles++;
	}
	ck_assert_uint_eq(tiles, 2);
	struct v4l2_ctrl_vp8_frame f;
	memset(&f, 0, sizeof(f));
	cp_bad_apply(cp_bad_at(V4L2_CTRL_TYPE_VP8_FRAME, 0), &f, sizeof(f));
	f.num_dct_parts = 0;
	uint8_t zero[sizeof(f)] = { 0 };
	ck_assert(!memcmp(&f, zero, sizeof(f)));
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
	tcase_add_test(tc, hdr10_payload_builder);
	tcase_add_test(tc, bad_row_precondition);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
