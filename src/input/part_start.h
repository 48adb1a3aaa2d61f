/*
 * The guessed start of a part of a plain CSV/TSV file (parallel ingest): see
 * part_start.c. The guess only costs time when wrong, never correctness:
 * the caller checks it against where the part before ended.
 */
#ifndef HFG_INPUT_PART_START_H
#define HFG_INPUT_PART_START_H

#include <stddef.h>
#include <stdint.h>

#define HFG_PART_GUESS_WINDOW ((size_t)64 << 10) /* bytes read at lo - 1 */

/* The guessed start of the part at lo (> 0) of the file fd: just after a
 * line end at or after lo - 1; UINT64_MAX when the window holds none. win:
 * HFG_PART_GUESS_WINDOW bytes of scratch. csv: the format quotes fields
 * (with delim between them); else the first line end. */
uint64_t hfg_part_guess_start(int fd, uint64_t lo, int csv, unsigned char delim, uint8_t *win);

#endif
