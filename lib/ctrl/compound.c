/* The per-type tables of compound payload rules (see compound.h). The line
 * numbers are those of ext-ctrls-codec-stateless.rst, the same in 6.1 and
 * 6.12 (AV1's: 6.12); the framework's side is v4l2-ctrls-core.c std_init_compound and
 * std_validate_compound (6.1 lines 104-183 and 555-960). */
#include "ctrl/compound.h"
#include "ctrl/uapi_av1.h"
#include <errno.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>

#define F(st, fld) offsetof(struct st, fld), (uint8_t)sizeof(((struct st *)0)->fld)
/* An integer field (off, len 0, width); a byte range (off, len). */
#define I(st, fld) offsetof(struct st, fld), 0, (uint8_t)sizeof(((struct st *)0)->fld)
#define R(st, fld) offsetof(struct st, fld), (uint16_t)sizeof(((struct st *)0)->fld)
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct cp_bad bad[] = {
	/* Documented ranges and enumerations. */
	{ V4L2_CTRL_TYPE_MPEG2_SEQUENCE, "chroma_format", F(v4l2_ctrl_mpeg2_sequence, chroma_format), 0, CP_DOCUMENTED,
	  "1: 4:2:0, 2: 4:2:2, 3: 4:4:4 (rst:1299)" },
	{ V4L2_CTRL_TYPE_MPEG2_SEQUENCE, "chroma_format", F(v4l2_ctrl_mpeg2_sequence, chroma_format), 4, CP_DOCUMENTED,
	  "1: 4:2:0, 2: 4:2:2, 3: 4:4:4 (rst:1299)" },
	{ V4L2_CTRL_TYPE_MPEG2_PICTURE, "picture_coding_type", F(v4l2_ctrl_mpeg2_picture, picture_coding_type), 0,
	  CP_DOCUMENTED, "I, P or B (rst:1367)" },
	{ V4L2_CTRL_TYPE_MPEG2_PICTURE, "picture_structure", F(v4l2_ctrl_mpeg2_picture, picture_structure), 0, CP_DOCUMENTED,
	  "1: top field, 2: bottom field, 3: frame (rst:1372)" },
	{ V4L2_CTRL_TYPE_MPEG2_PICTURE, "picture_structure", F(v4l2_ctrl_mpeg2_picture, picture_structure), 4, CP_DOCUMENTED,
	  "1: top field, 2: bottom field, 3: frame (rst:1372)" },
	{ V4L2_CTRL_TYPE_MPEG2_PICTURE, "intra_dc_precision", F(v4l2_ctrl_mpeg2_picture, intra_dc_precision), 4,
	  CP_DOCUMENTED, "0..3: 8 to 11 bits (rst:1376)" },
	{ V4L2_CTRL_TYPE_VP8_FRAME, "num_dct_parts", F(v4l2_ctrl_vp8_frame, num_dct_parts), 3, CP_DOCUMENTED,
	  "must be one of 1, 2, 4, 8 (rst:995)" },
	{ V4L2_CTRL_TYPE_VP8_FRAME, "num_dct_parts", F(v4l2_ctrl_vp8_frame, num_dct_parts), 0, CP_DOCUMENTED,
	  "must be one of 1, 2, 4, 8 (rst:995)" },
	{ V4L2_CTRL_TYPE_VP9_FRAME, "profile", F(v4l2_ctrl_vp9_frame, profile), 4, CP_DOCUMENTED,
	  "can be 0, 1, 2 or 3 (rst:1686)" },
	{ V4L2_CTRL_TYPE_VP9_FRAME, "bit_depth", F(v4l2_ctrl_vp9_frame, bit_depth), 9, CP_DOCUMENTED,
	  "can be 8, 10 or 12 (rst:1689)" },
	{ V4L2_CTRL_TYPE_VP9_FRAME, "tile_cols_log2", F(v4l2_ctrl_vp9_frame, tile_cols_log2), 7, CP_DOCUMENTED,
	  "shall be less than or equal to 6 (rst:1698)" },
	{ V4L2_CTRL_TYPE_VP9_COMPRESSED_HDR, "tx_mode", F(v4l2_ctrl_vp9_compressed_hdr, tx_mode), V4L2_VP9_TX_MODE_SELECT + 1,
	  CP_DOCUMENTED, "one of the TX modes 0..4 (rst:1496)" },
	{ V4L2_CTRL_TYPE_FWHT_PARAMS, "version", F(v4l2_ctrl_fwht_params, version), 0, CP_DOCUMENTED,
	  "set to V4L2_FWHT_VERSION (rst:827)" },
	/* Only the framework's code: the H.264 fields are documented by
	 * reference to the H.264 specification, and a frame of no width is
	 * not called invalid in the FWHT table. */
	{ V4L2_CTRL_TYPE_FWHT_PARAMS, "width", F(v4l2_ctrl_fwht_params, width), 0, CP_FRAMEWORK, "!width: EINVAL" },
	{ V4L2_CTRL_TYPE_FWHT_PARAMS, "height", F(v4l2_ctrl_fwht_params, height), 0, CP_FRAMEWORK, "!height: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_SPS, "log2_max_frame_num_minus4", F(v4l2_ctrl_h264_sps, log2_max_frame_num_minus4), 13,
	  CP_FRAMEWORK, "> 12: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_SPS, "pic_order_cnt_type", F(v4l2_ctrl_h264_sps, pic_order_cnt_type), 3, CP_FRAMEWORK,
	  "> 2: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_SPS, "max_num_ref_frames", F(v4l2_ctrl_h264_sps, max_num_ref_frames),
	  V4L2_H264_REF_LIST_LEN + 1, CP_FRAMEWORK, "> V4L2_H264_REF_LIST_LEN: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_PPS, "num_slice_groups_minus1", F(v4l2_ctrl_h264_pps, num_slice_groups_minus1), 8,
	  CP_FRAMEWORK, "> 7: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_PPS, "weighted_bipred_idc", F(v4l2_ctrl_h264_pps, weighted_bipred_idc), 3, CP_FRAMEWORK,
	  "> 2: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_PPS, "pic_init_qp_minus26", F(v4l2_ctrl_h264_pps, pic_init_qp_minus26), 26, CP_FRAMEWORK,
	  "> 25: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_PRED_WEIGHTS, "luma_log2_weight_denom",
	  F(v4l2_ctrl_h264_pred_weights, luma_log2_weight_denom), 8, CP_FRAMEWORK, "> 7: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_SLICE_PARAMS, "cabac_init_idc", F(v4l2_ctrl_h264_slice_params, cabac_init_idc), 3,
	  CP_FRAMEWORK, "> 2: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_SLICE_PARAMS, "disable_deblocking_filter_idc",
	  F(v4l2_ctrl_h264_slice_params, disable_deblocking_filter_idc), 3, CP_FRAMEWORK, "> 2: EINVAL" },
	{ V4L2_CTRL_TYPE_H264_DECODE_PARAMS, "nal_ref_idc", F(v4l2_ctrl_h264_decode_params, nal_ref_idc), 4, CP_FRAMEWORK,
	  "> 3: EINVAL" },
	/* AV1 (6.5+): documented by reference to the AV1 specification. */
	{ CP_AV1_SEQUENCE, "seq_profile", CP_AV1_SEQ_PROFILE, 1, 3, CP_FRAMEWORK, "> 2 (reserved): EINVAL" },
	{ CP_AV1_FILM_GRAIN, "num_y_points", CP_AV1_FG_NUM_Y_POINTS, 1, 15, CP_FRAMEWORK, "> 14: EINVAL" },
	/* HEVC: the fields are documented by reference to the HEVC
	 * specification; the framework bounds these two (6.1 and 6.12). */
	{ V4L2_CTRL_TYPE_HEVC_DECODE_PARAMS, "num_active_dpb_entries",
	  F(v4l2_ctrl_hevc_decode_params, num_active_dpb_entries), V4L2_HEVC_DPB_ENTRIES_NUM_MAX + 1, CP_FRAMEWORK,
	  "> V4L2_HEVC_DPB_ENTRIES_NUM_MAX: EINVAL" },
	{ V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS, "num_ref_idx_l0_active_minus1",
	  F(v4l2_ctrl_hevc_slice_params, num_ref_idx_l0_active_minus1), V4L2_HEVC_DPB_ENTRIES_NUM_MAX, CP_FRAMEWORK,
	  ">= V4L2_HEVC_DPB_ENTRIES_NUM_MAX: EINVAL" },
	/* ... the L1 count in a B slice only, the tile counts with tiles
	 * enabled (they index column_width_minus1[20], row_height_minus1[22]). */
	{ V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS, "num_ref_idx_l1_active_minus1 (B slice)",
	  F(v4l2_ctrl_hevc_slice_params, num_ref_idx_l1_active_minus1), V4L2_HEVC_DPB_ENTRIES_NUM_MAX, CP_FRAMEWORK,
	  "slice_type B and >= V4L2_HEVC_DPB_ENTRIES_NUM_MAX: EINVAL", F(v4l2_ctrl_hevc_slice_params, slice_type),
	  V4L2_HEVC_SLICE_TYPE_B },
	{ V4L2_CTRL_TYPE_HEVC_PPS, "num_tile_columns_minus1 (tiles enabled)", F(v4l2_ctrl_hevc_pps, num_tile_columns_minus1),
	  20, CP_FRAMEWORK, "TILES_ENABLED and >= ARRAY_SIZE(column_width_minus1): EINVAL", F(v4l2_ctrl_hevc_pps, flags),
	  V4L2_HEVC_PPS_FLAG_TILES_ENABLED },
	{ V4L2_CTRL_TYPE_HEVC_PPS, "num_tile_rows_minus1 (tiles enabled)", F(v4l2_ctrl_hevc_pps, num_tile_rows_minus1), 22,
	  CP_FRAMEWORK, "TILES_ENABLED and >= ARRAY_SIZE(row_height_minus1): EINVAL", F(v4l2_ctrl_hevc_pps, flags),
	  V4L2_HEVC_PPS_FLAG_TILES_ENABLED },
	/* AV1 frame (6.5+; validate_av1_frame, 6.12): the fields are documented
	 * by reference to the AV1 specification; these are the framework's
	 * bounds. The tile group entry has none: the framework validates
	 * nothing of it and its four fields have no documented range. */
	{ CP_AV1_FRAME, "tile_info.tile_cols", CP_AV1_FR_TILE_COLS, CP_AV1_MAX_TILE_COLS + 1, CP_FRAMEWORK,
	  "> V4L2_AV1_MAX_TILE_COLS: EINVAL" },
	{ CP_AV1_FRAME, "quantization.delta_q_y_dc", CP_AV1_FR_DELTA_Q_Y_DC, 64, CP_FRAMEWORK, "outside -64..63: EINVAL" },
	{ CP_AV1_FRAME, "quantization.delta_q_res", CP_AV1_FR_DELTA_Q_RES, 4, CP_FRAMEWORK, "> 3: EINVAL" },
	{ CP_AV1_FRAME, "loop_filter.sharpness", CP_AV1_FR_LF_SHARPNESS, 8, CP_FRAMEWORK, "> 7: EINVAL" },
	{ CP_AV1_FRAME, "cdef.damping_minus_3", CP_AV1_FR_CDEF_DAMPING, 4, CP_FRAMEWORK, "> 3: EINVAL" },
	{ CP_AV1_FRAME, "loop_restoration.lr_unit_shift", CP_AV1_FR_LR_UNIT_SHIFT, 4, CP_FRAMEWORK, "> 3: EINVAL" },
	{ CP_AV1_FRAME, "superres_denom", CP_AV1_FR_SUPERRES_DENOM, 17, CP_FRAMEWORK, "> 16: EINVAL" },
	{ CP_AV1_FRAME, "flags", CP_AV1_FR_FLAGS, 0x80000000, CP_FRAMEWORK, "an undefined flag: EINVAL" },
	/* HDR10 mastering display: ext-ctrls-colorimetry.rst gives units, no
	 * range; the framework holds the fields to the uapi's
	 * V4L2_HDR10_MASTERING_* bounds (the same in 6.1.192 and 6.12.118,
	 * zero white point and luminances meaning "unknown"). CLL has none. */
	{ V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, "display_primaries_x[0]",
	  F(v4l2_ctrl_hdr10_mastering_display, display_primaries_x[0]), V4L2_HDR10_MASTERING_PRIMARIES_X_LOW - 1,
	  CP_FRAMEWORK, "< V4L2_HDR10_MASTERING_PRIMARIES_X_LOW: EINVAL" },
	{ V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, "display_primaries_y[2]",
	  F(v4l2_ctrl_hdr10_mastering_display, display_primaries_y[2]), V4L2_HDR10_MASTERING_PRIMARIES_Y_HIGH + 1,
	  CP_FRAMEWORK, "> V4L2_HDR10_MASTERING_PRIMARIES_Y_HIGH: EINVAL" },
	{ V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, "white_point_x", F(v4l2_ctrl_hdr10_mastering_display, white_point_x),
	  V4L2_HDR10_MASTERING_WHITE_POINT_X_HIGH + 1, CP_FRAMEWORK, "> V4L2_HDR10_MASTERING_WHITE_POINT_X_HIGH: EINVAL" },
	{ V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, "max_display_mastering_luminance",
	  F(v4l2_ctrl_hdr10_mastering_display, max_display_mastering_luminance), V4L2_HDR10_MASTERING_MAX_LUMA_LOW - 1,
	  CP_FRAMEWORK, "non-zero and < V4L2_HDR10_MASTERING_MAX_LUMA_LOW: EINVAL" },
	{ V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, "min_display_mastering_luminance",
	  F(v4l2_ctrl_hdr10_mastering_display, min_display_mastering_luminance), V4L2_HDR10_MASTERING_MIN_LUMA_HIGH + 1,
	  CP_FRAMEWORK, "> V4L2_HDR10_MASTERING_MIN_LUMA_HIGH: EINVAL" },
	{ V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, "min_display_mastering_luminance (max at its lowest)",
	  F(v4l2_ctrl_hdr10_mastering_display, min_display_mastering_luminance), V4L2_HDR10_MASTERING_MIN_LUMA_HIGH,
	  CP_FRAMEWORK, "max = MAX_LUMA_LOW and min = MIN_LUMA_HIGH: EINVAL (H.265)",
	  F(v4l2_ctrl_hdr10_mastering_display, max_display_mastering_luminance), V4L2_HDR10_MASTERING_MAX_LUMA_LOW },
};

/* "Applications and drivers must set this to zero" (rst lines in brackets)
 * and zero_reserved/zero_padding in std_validate_compound. */
static const struct cp_reserved reserved[] = {
	{ V4L2_CTRL_TYPE_H264_SLICE_PARAMS, "reserved (rst:375)", R(v4l2_ctrl_h264_slice_params, reserved) },
	{ V4L2_CTRL_TYPE_H264_DECODE_PARAMS, "reserved (rst:586)", R(v4l2_ctrl_h264_decode_params, reserved) },
	{ V4L2_CTRL_TYPE_H264_DECODE_PARAMS, "dpb[0].reserved (rst:667)", R(v4l2_ctrl_h264_decode_params, dpb[0].reserved) },
	{ V4L2_CTRL_TYPE_VP8_FRAME, "coder_state.padding (rst:1088)", R(v4l2_ctrl_vp8_frame, coder_state.padding) },
	{ V4L2_CTRL_TYPE_VP8_FRAME, "segment.padding (rst:1112)", R(v4l2_ctrl_vp8_frame, segment.padding) },
	{ V4L2_CTRL_TYPE_VP8_FRAME, "lf.padding (rst:1175)", R(v4l2_ctrl_vp8_frame, lf.padding) },
	{ V4L2_CTRL_TYPE_VP8_FRAME, "quant.padding (rst:1231)", R(v4l2_ctrl_vp8_frame, quant.padding) },
	{ V4L2_CTRL_TYPE_VP8_FRAME, "entropy.padding (rst:1258)", R(v4l2_ctrl_vp8_frame, entropy.padding) },
	{ V4L2_CTRL_TYPE_MPEG2_PICTURE, "reserved (rst:1380)", R(v4l2_ctrl_mpeg2_picture, reserved) },
	{ V4L2_CTRL_TYPE_VP9_FRAME, "reserved (rst:1715)", R(v4l2_ctrl_vp9_frame, reserved) },
	{ V4L2_CTRL_TYPE_VP9_FRAME, "seg.reserved (rst:1905)", R(v4l2_ctrl_vp9_frame, seg.reserved) },
	{ V4L2_CTRL_TYPE_VP9_FRAME, "quant.reserved (rst:1993)", R(v4l2_ctrl_vp9_frame, quant.reserved) },
	{ V4L2_CTRL_TYPE_VP9_FRAME, "lf.reserved (rst:2029)", R(v4l2_ctrl_vp9_frame, lf.reserved) },
	/* Documented as zero, but std_validate_compound leaves them as the
	 * application wrote them (6.1 and 6.12): kept, they warn. HEVC's
	 * documentation names them padding (PPS "padding[4]", slice "padding",
	 * DPB entry "padding[2]"), the uapi reserved, reserved0/1. */
	{ V4L2_CTRL_TYPE_HEVC_PPS, "reserved (rst:2286 padding[4])", R(v4l2_ctrl_hevc_pps, reserved), true },
	{ V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS, "reserved0 (rst:2490 padding)", R(v4l2_ctrl_hevc_slice_params, reserved0), true },
	{ V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS, "reserved1 (rst:2490 padding)", R(v4l2_ctrl_hevc_slice_params, reserved1), true },
	{ V4L2_CTRL_TYPE_HEVC_DECODE_PARAMS, "dpb[0].reserved (rst:2653 padding[2])",
	  R(v4l2_ctrl_hevc_decode_params, dpb[0].reserved), true },
	/* AV1, 6.12's lines. */
	{ CP_AV1_SEQUENCE, "reserved (rst:2993)", CP_AV1_SEQ_RESERVED, true },
	{ CP_AV1_FRAME, "global_motion.reserved (rst:3244)", CP_AV1_FR_GM_RESERVED, true },
	{ CP_AV1_FRAME, "loop_restoration.reserved (rst:3323)", CP_AV1_FR_LR_RESERVED, true },
	{ CP_AV1_FRAME, "tile_info.reserved (rst:3687)", CP_AV1_FR_TILE_RESERVED, true },
	{ CP_AV1_FRAME, "reserved (rst:3884)", CP_AV1_FR_RESERVED, true },
	{ CP_AV1_FILM_GRAIN, "reserved (rst:4132)", CP_AV1_FG_RESERVED, true },
};

/* ISO/IEC 13818-2 6.3.11: the default intra matrix, raster order. */
static const uint8_t intra_raster[64] = {
	8,  16, 19, 22, 26, 27, 29, 34, 16, 16, 22, 24, 27, 29, 34, 37,
	19, 22, 26, 27, 29, 34, 34, 38, 22, 22, 26, 27, 29, 34, 37, 40,
	22, 26, 27, 29, 32, 35, 40, 48, 26, 27, 29, 32, 35, 40, 48, 58,
	26, 27, 29, 34, 38, 46, 56, 69, 27, 29, 35, 38, 46, 56, 69, 83,
};

const uint8_t *cp_mpeg2_default_intra(void)
{
	static uint8_t zz[64];
	if (zz[0])
		return zz;
	/* The zigzag scan: walk the anti-diagonals, alternating direction. */
	unsigned k = 0;
	for (int s = 0; s < 15; s++)
		for (int i = 0; i <= s; i++) {
			int r = s % 2 ? i : s - i, c = s - r;
			if (r < 8 && c < 8)
				zz[k++] = intra_raster[r * 8 + c];
		}
	return zz;
}

static const struct cp_default *defaults(size_t *n)
{
	static struct cp_default d[] = {
		/* rst:1424 "This control is initialized by the kernel to the
		 * matrices default values." */
		{ V4L2_CTRL_TYPE_MPEG2_QUANTISATION, "intra_quantiser_matrix", R(v4l2_ctrl_mpeg2_quantisation, intra_quantiser_matrix),
		  0, 0, 0, NULL, 0, CP_DOCUMENTED, "the MPEG-2 default intra matrix (rst:1424)" },
		{ V4L2_CTRL_TYPE_MPEG2_QUANTISATION, "non_intra_quantiser_matrix",
		  R(v4l2_ctrl_mpeg2_quantisation, non_intra_quantiser_matrix), 0, 0, 0, NULL, 16, CP_DOCUMENTED,
		  "the MPEG-2 default non-intra matrix, all 16 (rst:1424)" },
		/* The framework's own defaults (std_init_compound), undocumented. */
		{ V4L2_CTRL_TYPE_MPEG2_SEQUENCE, "chroma_format", I(v4l2_ctrl_mpeg2_sequence, chroma_format), 0, 1, NULL, 0,
		  CP_FRAMEWORK, "4:2:0" },
		{ V4L2_CTRL_TYPE_MPEG2_PICTURE, "picture_structure", I(v4l2_ctrl_mpeg2_picture, picture_structure), 0,
		  V4L2_MPEG2_PIC_TOP_FIELD, NULL, 0, CP_FRAMEWORK, "top field" },
		{ V4L2_CTRL_TYPE_MPEG2_PICTURE, "picture_coding_type", I(v4l2_ctrl_mpeg2_picture, picture_coding_type), 0,
		  V4L2_MPEG2_PIC_CODING_TYPE_I, NULL, 0, CP_FRAMEWORK, "I" },
		{ V4L2_CTRL_TYPE_VP8_FRAME, "num_dct_parts", I(v4l2_ctrl_vp8_frame, num_dct_parts), 0, 1, NULL, 0,
		  CP_FRAMEWORK, "one partition" },
		{ V4L2_CTRL_TYPE_VP9_FRAME, "profile", I(v4l2_ctrl_vp9_frame, profile), 0, 0, NULL, 0, CP_FRAMEWORK, "0" },
		{ V4L2_CTRL_TYPE_VP9_FRAME, "bit_depth", I(v4l2_ctrl_vp9_frame, bit_depth), 0, 8, NULL, 0, CP_FRAMEWORK, "8" },
		{ V4L2_CTRL_TYPE_VP9_FRAME, "flags", I(v4l2_ctrl_vp9_frame, flags),
		  V4L2_VP9_FRAME_FLAG_X_SUBSAMPLING | V4L2_VP9_FRAME_FLAG_Y_SUBSAMPLING,
		  V4L2_VP9_FRAME_FLAG_X_SUBSAMPLING | V4L2_VP9_FRAME_FLAG_Y_SUBSAMPLING, NULL, 0, CP_FRAMEWORK, "4:2:0" },
		{ CP_AV1_SEQUENCE, "bit_depth", CP_AV1_SEQ_BIT_DEPTH, 0, 1, 0, 8, NULL, 0, CP_FRAMEWORK, "8" },
		{ V4L2_CTRL_TYPE_FWHT_PARAMS, "version", I(v4l2_ctrl_fwht_params, version), 0, V4L2_FWHT_VERSION, NULL, 0,
		  CP_FRAMEWORK, "V4L2_FWHT_VERSION" },
		{ V4L2_CTRL_TYPE_FWHT_PARAMS, "width", I(v4l2_ctrl_fwht_params, width), 0, 1280, NULL, 0, CP_FRAMEWORK, "1280" },
		{ V4L2_CTRL_TYPE_FWHT_PARAMS, "height", I(v4l2_ctrl_fwht_params, height), 0, 720, NULL, 0, CP_FRAMEWORK, "720" },
		{ V4L2_CTRL_TYPE_FWHT_PARAMS, "flags", I(v4l2_ctrl_fwht_params, flags), 0,
		  V4L2_FWHT_FL_PIXENC_YUV | (2 << V4L2_FWHT_FL_COMPONENTS_NUM_OFFSET), NULL, 0, CP_FRAMEWORK, "YUV, components field 2" },
		{ V4L2_CTRL_TYPE_H264_SCALING_MATRIX, "(all)", 0, sizeof(struct v4l2_ctrl_h264_scaling_matrix), 0, 0, 0, NULL, 16,
		  CP_FRAMEWORK, "flat, all 16" },
	};
	d[0].bytes = cp_mpeg2_default_intra();
	*n = N(d);
	return d;
}

#define COUNT_AT(name, tab, T)                                                  \
	size_t name##_count(uint32_t type)                                      \
	{                                                                       \
		size_t n = 0, len;                                              \
		const T *t = tab(&len);                                         \
		for (size_t i = 0; i < len; i++)                                \
			n += t[i].type == type;                                 \
		return n;                                                       \
	}                                                                       \
	const T *name##_at(uint32_t type, size_t k)                             \
	{                                                                       \
		size_t len;                                                     \
		const T *t = tab(&len);                                         \
		for (size_t i = 0; i < len; i++)                                \
			if (t[i].type == type && !k--)                          \
				return &t[i];                                   \
		return NULL;                                                    \
	}

static const struct cp_bad *bad_tab(size_t *n) { *n = N(bad); return bad; }
static const struct cp_reserved *res_tab(size_t *n) { *n = N(reserved); return reserved; }
COUNT_AT(cp_bad, bad_tab, struct cp_bad)
COUNT_AT(cp_reserved, res_tab, struct cp_reserved)
COUNT_AT(cp_default, defaults, struct cp_default)

bool cp_valid_payload(uint32_t type, void *p, size_t size)
{
	if (type != V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY || size < sizeof(struct v4l2_ctrl_hdr10_mastering_display))
		return false;
	/* BT.2020 (green, blue, red) and D65 in 0.00002 steps, 1000 cd/m2
	 * and 0.005 cd/m2 in 0.0001 cd/m2: inside every V4L2_HDR10_MASTERING_*
	 * bound. */
	struct v4l2_ctrl_hdr10_mastering_display m = {
		.display_primaries_x = { 8500, 6550, 35400 },
		.display_primaries_y = { 39850, 2300, 14600 },
		.white_point_x = 15635,
		.white_point_y = 16450,
		.max_display_mastering_luminance = 10000000,
		.min_display_mastering_luminance = 50,
	};
	memcpy(p, &m, sizeof(m));
	return true;
}

void cp_bad_apply(const struct cp_bad *b, void *p, size_t size)
{
	if (b->pre_width)
		cp_field_set(p, size, b->pre_off, b->pre_width, b->pre_value);
	cp_field_set(p, size, b->off, b->width, (uint64_t)b->value);
}

uint64_t cp_field_get(const void *p, size_t size, uint16_t off, uint8_t width)
{
	uint64_t v = 0;
	if ((size_t)off + width > size || width > 8)
		return 0;
	for (unsigned i = 0; i < width; i++)
		v |= (uint64_t)((const uint8_t *)p)[off + i] << (8 * i);
	return v;
}

void cp_field_set(void *p, size_t size, uint16_t off, uint8_t width, uint64_t v)
{
	if ((size_t)off + width > size || width > 8)
		return;
	for (unsigned i = 0; i < width; i++)
		((uint8_t *)p)[off + i] = (uint8_t)(v >> (8 * i));
}

bool cp_default_holds(const struct cp_default *d, const void *p, size_t size, char *got, size_t n)
{
	got[0] = 0;
	if (d->width) {
		uint64_t v = cp_field_get(p, size, d->off, d->width);
		uint64_t m = d->mask ? d->mask : ~0ull;
		snprintf(got, n, "%llu (0x%llx)", (unsigned long long)v, (unsigned long long)v);
		return (v & m) == ((uint64_t)d->value & m);
	}
	if ((size_t)d->off + d->len > size) {
		snprintf(got, n, "a payload of %zu bytes", size);
		return false;
	}
	const uint8_t *b = (const uint8_t *)p + d->off;
	for (unsigned i = 0; i < d->len; i++) {
		uint8_t want = d->bytes ? d->bytes[i] : d->fill;
		if (b[i] != want) {
			snprintf(got, n, "byte %u = %u, expected %u", i, b[i], want);
			return false;
		}
	}
	return true;
}

int cp_reserved_nonzero(const struct cp_reserved *r, const void *p, size_t size)
{
	for (unsigned i = 0; i < r->len && (size_t)r->off + i < size; i++)
		if (((const uint8_t *)p)[r->off + i])
			return (int)i;
	return -1;
}

enum cp_verdict cp_judge_invalid(enum cp_source src, bool set, int err, uint32_t error_idx, uint32_t idx, uint32_t count,
				 bool changed, char *why, size_t n)
{
	const char *req = set ? "S_EXT_CTRLS" : "TRY_EXT_CTRLS";
	if (err == 0) {
		snprintf(why, n, "%s accepted it%s", req, changed ? " and the value changed" : "");
		return src == CP_DOCUMENTED ? CPV_FAIL : CPV_WARN;
	}
	if (changed) {
		snprintf(why, n, "%s refused it (errno %d) but the current value changed", req, err);
		return CPV_FAIL;
	}
	if (err != EINVAL && err != ERANGE) {
		snprintf(why, n, "%s gave errno %d, expected EINVAL", req, err);
		return CPV_FAIL;
	}
	bool idx_ok = set ? (error_idx == idx || error_idx == count) : error_idx == idx;
	if (!idx_ok) {
		if (set)
			snprintf(why, n, "S_EXT_CTRLS: error_idx %u, expected %u (the index) or %u (count)", error_idx, idx, count);
		else
			snprintf(why, n, "TRY_EXT_CTRLS: error_idx %u, expected %u (the index of the failing control)", error_idx, idx);
		return CPV_FAIL;
	}
	if (err == ERANGE) {
		snprintf(why, n, "%s gave ERANGE; the framework gives EINVAL for an invalid payload", req);
		return CPV_WARN;
	}
	snprintf(why, n, "%s: EINVAL, error_idx %u", req, error_idx);
	return CPV_PASS;
}

enum cp_verdict cp_judge_reserved(int err, int nz, bool fw_keeps, char *why, size_t n)
{
	if (err == EINVAL) {
		snprintf(why, n, "refused (EINVAL): the application broke \"must set this to zero\"");
		return CPV_PASS;
	}
	if (err) {
		snprintf(why, n, "S_EXT_CTRLS gave errno %d, expected success with the field zeroed, or EINVAL", err);
		return CPV_FAIL;
	}
	if (nz >= 0) {
		snprintf(why, n, "read back with byte %d non-zero: drivers must set it to zero%s", nz,
			 fw_keeps ? "; the framework's std_validate_compound does not zero this one" : "");
		return fw_keeps ? CPV_WARN : CPV_FAIL;
	}
	snprintf(why, n, "accepted and read back zero");
	return CPV_PASS;
}
