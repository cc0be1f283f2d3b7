/* AV1 (6.5+) uapi facts that the build's 6.1 headers lack: with headers
 * that have AV1 they come from the structures themselves; otherwise they are
 * the 6.12 uapi's numbers. harness/test_coverage.py
 * (test_compound_tables_match_the_headers) builds the tables both ways, so a
 * number here that the 6.12 headers contradict fails there. */
#ifndef V4L2C_UAPI_AV1_H
#define V4L2C_UAPI_AV1_H
#include <linux/videodev2.h>

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
#endif
#endif
