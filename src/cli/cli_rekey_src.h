/*
 * The old-table input of plan, splits --algo sample and lint, as rekey reads it
 * (include/hfilegen/rekey.h): --from DIR [--snapshot NAME] --old-key PATTERN
 * [--raw] [--as-of MILLIS]. The commands' new keys are then the old rows' keys
 * parsed by PATTERN and re-keyed by --rowkey.
 */
#ifndef HFG_CLI_REKEY_SRC_H
#define HFG_CLI_REKEY_SRC_H

#include <stddef.h>

#include "hfilegen/rekey.h"

typedef struct cli_rekey_src {
  hfg_rekey_options ro; /* from_dir, snapshot, old_key, raw, as_of; build set by the command */
  int given;            /* one of the flags was given */
  char desc[1200];      /* "DIR snapshot NAME" or "DIR" (after cli_rekey_src_check) */
} cli_rekey_src;

void cli_rekey_src_init(cli_rekey_src *s);

/* Consumes argv[*i] (and its value) when it is one of the flags above: 1 consumed,
 * 0 not ours, -1 a missing or bad value (printed). */
int cli_rekey_src_flag(cli_rekey_src *s, int argc, char **argv, int *i, const char *cmd);

/* Usage errors, printed: --snapshot, --old-key, --raw or --as-of without --from, --from
 * without --old-key, --from with inputs (ninputs). 0 fine (s->given says which input). */
int cli_rekey_src_check(cli_rekey_src *s, size_t ninputs, const char *cmd);

/* --from DIR without --snapshot where DIR is an HBase root directory (it holds
 * .hbase-snapshot/): read as family folders it held no rows, and rekey published an
 * empty output. 2 after a message naming the snapshots there, else 0. Also rekey's. */
int cli_rekey_src_root_check(const char *cmd, const char *from, const char *snapshot);

/* The usage lines of the flags, for the commands' help. */
#define CLI_REKEY_SRC_USAGE                                                                  \
  "table:   --from DIR [--snapshot NAME] --old-key PATTERN [--raw] [--as-of MILLIS]\n"       \
  "         instead of inputs: the old table's rows as 'hfilegen rekey' reads them (a\n"     \
  "         snapshot, or DIR's family folders of HFiles), each old key parsed by PATTERN\n"  \
  "         and re-keyed by --rowkey: what rekey will write\n"

#endif
