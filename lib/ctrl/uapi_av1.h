/* AV1 (6.5+) uapi facts that the build's 6.1 headers lack: with headers
 * that have AV1 they come from the structures themselves; otherwise they are
 * the 6.12 uapi's numbers. harness/test_coverage.py
 * (test_compound_tables_match_the_headers) builds the tables both ways, so a
 * number here that the 6.12 headers contradict fails there. */
#ifndef V4L2C_UAPI_AV1_H
#define V4L2C_UAPI_AV1_H
#include <linux/videodev2.h>
#include <stddef.h>
#include <stdint.h>

#ifdef V4L2_CID_STATELESS_AV1_SEQUENCE
#define CP_AV1_SEQUENCE V4L2_CTRL_TYPE_AV1_SEQUENCE
#define CP_AV1_TILE_GROUP_ENTRY V4L2_CTRL_TYPE_AV1_TILE_GROUP_ENTRY
#define CP_AV1_FRAME V4L2_CTRL_TYPE_AV1_FRAME
#define CP_AV1_FILM_GRAIN V4L2_CTRL_TYPE_AV1_FILM_GRAIN
#define CP_AV1_SEQUENCE_SIZE sizeof(struct v4l2_ctrl_av1_sequence)
#define CP_AV1_TILE_GROUP_ENTRY_SIZE sizeof(struct v4l2_ctrl_av1_tile_group_entry)
#define CP_AV1_FRAME_SIZE sizeof(struct v4l2_ctrl_av1_frame)
#define CP_AV1_FILM_GRAIN_SIZE sizeof(struct v4l2_ctrl_av1_film_grain)
#define CP_AV1_SEQ_PROFILE offsetof(struct v4l2_ctrl_av1_sequence, seq_profile)
#define CP_AV1_SEQ_BIT_DEPTH offsetof(struct v4l2_ctrl_av1_sequence, bit_depth)
#define CP_AV1_FG_NUM_Y_POINTS offsetof(struct v4l2_ctrl_av1_film_grain, num_y_points)
#define CP_AV1_AT(st, f) offsetof(struct st, f), (uint16_t)sizeof(((struct st *)0)->f)
#define CP_AV1_SEQ_RESERVED CP_AV1_AT(v4l2_ctrl_av1_sequence, reserved)
#define CP_AV1_FR_TILE_COLS CP_AV1_AT(v4l2_ctrl_av1_frame, tile_info.tile_cols)
#define CP_AV1_FR_TILE_RESERVED CP_AV1_AT(v4l2_ctrl_av1_frame, tile_info.reserved)
#define CP_AV1_FR_DELTA_Q_Y_DC CP_AV1_AT(v4l2_ctrl_av1_frame, quantization.delta_q_y_dc)
#define CP_AV1_FR_DELTA_Q_RES CP_AV1_AT(v4l2_ctrl_av1_frame, quantization.delta_q_res)
#define CP_AV1_FR_LF_SHARPNESS CP_AV1_AT(v4l2_ctrl_av1_frame, loop_filter.sharpness)
#define CP_AV1_FR_CDEF_DAMPING CP_AV1_AT(v4l2_ctrl_av1_frame, cdef.damping_minus_3)
#define CP_AV1_FR_LR_UNIT_SHIFT CP_AV1_AT(v4l2_ctrl_av1_frame, loop_restoration.lr_unit_shift)
#define CP_AV1_FR_LR_RESERVED CP_AV1_AT(v4l2_ctrl_av1_frame, loop_restoration.reserved)
#define CP_AV1_FR_GM_RESERVED CP_AV1_AT(v4l2_ctrl_av1_frame, global_motion.reserved)
#define CP_AV1_FR_SUPERRES_DENOM CP_AV1_AT(v4l2_ctrl_av1_frame, superres_denom)
#define CP_AV1_FR_FLAGS CP_AV1_AT(v4l2_ctrl_av1_frame, flags)
#define CP_AV1_FR_RESERVED CP_AV1_AT(v4l2_ctrl_av1_frame, reserved)
#define CP_AV1_FG_RESERVED CP_AV1_AT(v4l2_ctrl_av1_film_grain, reserved)
#define CP_AV1_MAX_TILE_COLS V4L2_AV1_MAX_TILE_COLS
#else
#define CP_AV1_SEQUENCE 0x280
#define CP_AV1_TILE_GROUP_ENTRY 0x281
#define CP_AV1_FRAME 0x282
#define CP_AV1_FILM_GRAIN 0x283
#define CP_AV1_SEQUENCE_SIZE 12
#define CP_AV1_TILE_GROUP_ENTRY_SIZE 16
#define CP_AV1_FRAME_SIZE 1784
#define CP_AV1_FILM_GRAIN_SIZE 194
#define CP_AV1_SEQ_PROFILE 4
#define CP_AV1_SEQ_BIT_DEPTH 6
#define CP_AV1_FG_NUM_Y_POINTS 5
/* Offset, size of the fields the compound rows name (lib/ctrl/compound.c). */
#define CP_AV1_SEQ_RESERVED 7, 1
#define CP_AV1_FR_TILE_COLS 2, 1
#define CP_AV1_FR_TILE_RESERVED 1037, 3
#define CP_AV1_FR_DELTA_Q_Y_DC 1042, 1
#define CP_AV1_FR_DELTA_Q_RES 1050, 1
#define CP_AV1_FR_LF_SHARPNESS 1195, 1
#define CP_AV1_FR_CDEF_DAMPING 1207, 1
#define CP_AV1_FR_LR_UNIT_SHIFT 1245, 1
#define CP_AV1_FR_LR_RESERVED 1247, 1
#define CP_AV1_FR_GM_RESERVED 1505, 3
#define CP_AV1_FR_SUPERRES_DENOM 1051, 1
#define CP_AV1_FR_FLAGS 1508, 4
#define CP_AV1_FR_RESERVED 1676, 4
#define CP_AV1_FG_RESERVED 190, 4
#define CP_AV1_MAX_TILE_COLS 64
#endif
#endif
