/* Control type and flag facts, from the QUERYCTRL type tables of 6.1, 6.12
 * and 7.3 (which kernel has which: ctrl/rulebook.c). */
#include "ctrl/ctrl_type.h"
#include "ctrl/uapi_av1.h"
#include "ctrl/uapi_7_3.h"
#include <stdio.h>
#include <string.h>

static const struct { uint32_t type; const char *name; } type_names[] = {
	{ V4L2_CTRL_TYPE_INTEGER, "integer" },
	{ V4L2_CTRL_TYPE_BOOLEAN, "boolean" },
	{ V4L2_CTRL_TYPE_MENU, "menu" },
	{ V4L2_CTRL_TYPE_BUTTON, "button" },
	{ V4L2_CTRL_TYPE_INTEGER64, "integer64" },
	{ V4L2_CTRL_TYPE_CTRL_CLASS, "ctrl-class" },
	{ V4L2_CTRL_TYPE_STRING, "string" },
	{ V4L2_CTRL_TYPE_BITMASK, "bitmask" },
	{ V4L2_CTRL_TYPE_INTEGER_MENU, "integer-menu" },
	{ V4L2_CTRL_TYPE_U8, "u8" },
	{ V4L2_CTRL_TYPE_U16, "u16" },
	{ V4L2_CTRL_TYPE_U32, "u32" },
	{ V4L2_CTRL_TYPE_AREA, "area" },
	{ V4L2C_CTRL_TYPE_RECT, "rect" },	/* 6.15 (QC-21) */
	/* Codec and HDR compound types, from the uapi (videodev2.h enum
	 * v4l2_ctrl_type): validated by the framework's std_validate_compound. */
	{ V4L2_CTRL_TYPE_HDR10_CLL_INFO, "hdr10-cll-info" },
	{ V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, "hdr10-mastering-display" },
	{ V4L2_CTRL_TYPE_H264_SPS, "h264-sps" }, { V4L2_CTRL_TYPE_H264_PPS, "h264-pps" },
	{ V4L2_CTRL_TYPE_H264_SCALING_MATRIX, "h264-scaling-matrix" },
	{ V4L2_CTRL_TYPE_H264_SLICE_PARAMS, "h264-slice-params" },
	{ V4L2_CTRL_TYPE_H264_DECODE_PARAMS, "h264-decode-params" },
	{ V4L2_CTRL_TYPE_H264_PRED_WEIGHTS, "h264-pred-weights" },
	{ V4L2_CTRL_TYPE_FWHT_PARAMS, "fwht-params" },
	{ V4L2_CTRL_TYPE_VP8_FRAME, "vp8-frame" },
	{ V4L2_CTRL_TYPE_MPEG2_QUANTISATION, "mpeg2-quantisation" },
	{ V4L2_CTRL_TYPE_MPEG2_SEQUENCE, "mpeg2-sequence" },
	{ V4L2_CTRL_TYPE_MPEG2_PICTURE, "mpeg2-picture" },
	{ V4L2_CTRL_TYPE_VP9_COMPRESSED_HDR, "vp9-compressed-hdr" },
	{ V4L2_CTRL_TYPE_VP9_FRAME, "vp9-frame" },
	{ V4L2_CTRL_TYPE_HEVC_SPS, "hevc-sps" }, { V4L2_CTRL_TYPE_HEVC_PPS, "hevc-pps" },
	{ V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS, "hevc-slice-params" },
	{ V4L2_CTRL_TYPE_HEVC_SCALING_MATRIX, "hevc-scaling-matrix" },
	{ V4L2_CTRL_TYPE_HEVC_DECODE_PARAMS, "hevc-decode-params" },
	/* After 6.12, at or before 7.3 (CP-4): the 7.3 uapi's values. */
	{ V4L2C_CTRL_TYPE_HEVC_EXT_SPS_ST_RPS, "hevc-ext-sps-st-rps" },
	{ V4L2C_CTRL_TYPE_HEVC_EXT_SPS_LT_RPS, "hevc-ext-sps-lt-rps" },
	/* AV1 came in 6.5: the 6.12 uapi's values, which the build host's
	 * (6.1) headers do not have yet. */
	{ 0x0280, "av1-sequence" }, { 0x0281, "av1-tile-group-entry" },
	{ 0x0282, "av1-frame" }, { 0x0283, "av1-film-grain" },
};

const char *ctrl_type_name(uint32_t type)
{
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (type_names[i].type == type)
			return type_names[i].name;
	return NULL;
}

/* QC-16: a compound control's elem_size is the size of its uapi structure.
 * The sizes come from the build host's uapi headers; the uapi is an ABI, so a
 * structure does not change size between kernels. AV1 (6.5+), which the 6.1
 * headers lack: the 6.12 uapi's sizes (uapi_av1.h, checked against the 6.12
 * headers by test_compound_tables_match_the_headers). */
size_t ctrl_type_struct_size(uint32_t type)
{
	static const struct { uint32_t type; size_t size; } sizes[] = {
		{ V4L2_CTRL_TYPE_AREA, sizeof(struct v4l2_area) },
		{ V4L2C_CTRL_TYPE_RECT, V4L2C_RECT_SIZE },
		{ V4L2C_CTRL_TYPE_HEVC_EXT_SPS_ST_RPS, V4L2C_HEVC_EXT_SPS_ST_RPS_SIZE },
		{ V4L2C_CTRL_TYPE_HEVC_EXT_SPS_LT_RPS, V4L2C_HEVC_EXT_SPS_LT_RPS_SIZE },
		{ V4L2_CTRL_TYPE_HDR10_CLL_INFO, sizeof(struct v4l2_ctrl_hdr10_cll_info) },
		{ V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY, sizeof(struct v4l2_ctrl_hdr10_mastering_display) },
		{ V4L2_CTRL_TYPE_H264_SPS, sizeof(struct v4l2_ctrl_h264_sps) },
		{ V4L2_CTRL_TYPE_H264_PPS, sizeof(struct v4l2_ctrl_h264_pps) },
		{ V4L2_CTRL_TYPE_H264_SCALING_MATRIX, sizeof(struct v4l2_ctrl_h264_scaling_matrix) },
		{ V4L2_CTRL_TYPE_H264_SLICE_PARAMS, sizeof(struct v4l2_ctrl_h264_slice_params) },
		{ V4L2_CTRL_TYPE_H264_DECODE_PARAMS, sizeof(struct v4l2_ctrl_h264_decode_params) },
		{ V4L2_CTRL_TYPE_H264_PRED_WEIGHTS, sizeof(struct v4l2_ctrl_h264_pred_weights) },
		{ V4L2_CTRL_TYPE_FWHT_PARAMS, sizeof(struct v4l2_ctrl_fwht_params) },
		{ V4L2_CTRL_TYPE_VP8_FRAME, sizeof(struct v4l2_ctrl_vp8_frame) },
		{ V4L2_CTRL_TYPE_MPEG2_QUANTISATION, sizeof(struct v4l2_ctrl_mpeg2_quantisation) },
		{ V4L2_CTRL_TYPE_MPEG2_SEQUENCE, sizeof(struct v4l2_ctrl_mpeg2_sequence) },
		{ V4L2_CTRL_TYPE_MPEG2_PICTURE, sizeof(struct v4l2_ctrl_mpeg2_picture) },
		{ V4L2_CTRL_TYPE_VP9_COMPRESSED_HDR, sizeof(struct v4l2_ctrl_vp9_compressed_hdr) },
		{ V4L2_CTRL_TYPE_VP9_FRAME, sizeof(struct v4l2_ctrl_vp9_frame) },
		{ V4L2_CTRL_TYPE_HEVC_SPS, sizeof(struct v4l2_ctrl_hevc_sps) },
		{ V4L2_CTRL_TYPE_HEVC_PPS, sizeof(struct v4l2_ctrl_hevc_pps) },
		{ V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS, sizeof(struct v4l2_ctrl_hevc_slice_params) },
		{ V4L2_CTRL_TYPE_HEVC_SCALING_MATRIX, sizeof(struct v4l2_ctrl_hevc_scaling_matrix) },
		{ V4L2_CTRL_TYPE_HEVC_DECODE_PARAMS, sizeof(struct v4l2_ctrl_hevc_decode_params) },
		{ CP_AV1_SEQUENCE, CP_AV1_SEQUENCE_SIZE },
		{ CP_AV1_TILE_GROUP_ENTRY, CP_AV1_TILE_GROUP_ENTRY_SIZE },
		{ CP_AV1_FRAME, CP_AV1_FRAME_SIZE },
		{ CP_AV1_FILM_GRAIN, CP_AV1_FILM_GRAIN_SIZE },
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i].type == type)
			return sizes[i].size;
	return 0;
}

bool ctrl_type_known(uint32_t type) { return ctrl_type_name(type) != NULL; }

bool ctrl_type_is_int32(uint32_t type)
{
	switch (type) {
	case V4L2_CTRL_TYPE_INTEGER: case V4L2_CTRL_TYPE_BOOLEAN: case V4L2_CTRL_TYPE_MENU:
	case V4L2_CTRL_TYPE_INTEGER_MENU: case V4L2_CTRL_TYPE_BITMASK: case V4L2_CTRL_TYPE_BUTTON:
		return true;
	default:
		return false;
	}
}

bool ctrl_type_is_menu(uint32_t type)
{
	return type == V4L2_CTRL_TYPE_MENU || type == V4L2_CTRL_TYPE_INTEGER_MENU;
}

bool ctrl_is_array(const struct v4l2_query_ext_ctrl *q)
{
	return q->nr_of_dims > 0 || (q->flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY) || q->elems > 1;
}

bool ctrl_is_compound(const struct v4l2_query_ext_ctrl *q)
{
	return ctrl_is_array(q) || q->type >= V4L2_CTRL_COMPOUND_TYPES;
}

bool ctrl_payload_expected(const struct v4l2_query_ext_ctrl *q)
{
	return ctrl_is_compound(q) || q->type == V4L2_CTRL_TYPE_STRING;
}

bool ctrl_has_payload(const struct v4l2_query_ext_ctrl *q)
{
	return (q->flags & V4L2_CTRL_FLAG_HAS_PAYLOAD) || ctrl_payload_expected(q);
}

bool ctrl_is_scalar_int32(const struct v4l2_query_ext_ctrl *q)
{
	return ctrl_type_is_int32(q->type) && !ctrl_has_payload(q);
}

bool ctrl_readable(const struct v4l2_query_ext_ctrl *q)
{
	return !(q->flags & V4L2_CTRL_FLAG_WRITE_ONLY) && q->type != V4L2_CTRL_TYPE_BUTTON &&
	       q->type != V4L2_CTRL_TYPE_CTRL_CLASS;
}

bool ctrl_writable(const struct v4l2_query_ext_ctrl *q)
{
	return !(q->flags & (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_DISABLED)) &&
	       q->type != V4L2_CTRL_TYPE_CTRL_CLASS;
}

void ctrl_flags_str(uint32_t flags, char *buf, size_t len)
{
	static const char *const names[] = { "disabled", "grabbed", "read-only", "update", "inactive",
		"slider", "write-only", "volatile", "has-payload", "execute-on-write",
		"modify-layout", "dynamic-array", "has-which-min-max" };
	size_t o = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < 32 && o < len; i++) {
		if (!(flags & (1u << i)))
			continue;
		if (i < sizeof(names) / sizeof(names[0]))
			o += snprintf(buf + o, len - o, "%s%s", o ? "," : "", names[i]);
		else
			o += snprintf(buf + o, len - o, "%s0x%x", o ? "," : "", 1u << i);
	}
}

bool ctrl_flags_self_moving(uint32_t flags)
{
	return flags & (V4L2_CTRL_FLAG_VOLATILE | V4L2_CTRL_FLAG_INACTIVE);
}
