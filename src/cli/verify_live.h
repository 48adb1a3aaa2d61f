/*
 * verify OUT --table T, right before the load (verify_live.c): the live
 * regions replace --splits; the region changes since the build (manifest.json's
 * "splits" against the table's start keys now) are named, for every file that
 * would be split and as notes; and every file's family settings are checked
 * against the table's (family exists, COMPRESSION, BLOOMFILTER,
 * DATA_BLOCK_ENCODING).
 */
#ifndef HFG_CLI_VERIFY_LIVE_H
#define HFG_CLI_VERIFY_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli_hbase.h"

typedef struct verify_live {
  int active;
  cli_hbase_args hb;
  hfg_hbase_table t;
  uint8_t **bkeys;          /* the build's split keys (manifest.json "splits") */
  size_t *blens;
  size_t nb;
  int have_manifest;
  char manifest[4096];
  size_t nbad;              /* files whose family settings differ from the table's */
  size_t nnotes;
} verify_live;

/* Looks the table up and reads the manifest of the first directory in argv; prints
 * the region changes since the build as NOTE lines (unless quiet). 0, 1 or 2. */
int verify_live_fetch(verify_live *lv, int argc, char **argv, int quiet);

/* The build's split keys (manifest.json "splits") into lv->bkeys/blens/nb and
 * lv->manifest: from the first directory among argv's inputs, or, with all, from
 * every one of them, which must agree. 0, or -1 with why saying what was missing. */
int verify_build_splits(verify_live *lv, int argc, char **argv, int all, char *why,
                        size_t whylen);

/* Appends to a span FAIL line why the file crosses a boundary now. */
void verify_live_cause(const verify_live *lv, FILE *f, const uint8_t *first, size_t first_len,
                       const uint8_t *last, size_t last_len);

/* Checks one verified file against its family's settings; prints a FAIL line (and
 * counts it) when one differs. */
void verify_live_family(verify_live *lv, const char *path, const uint8_t *fam, size_t fam_len);

void verify_live_free(verify_live *lv);

#endif
