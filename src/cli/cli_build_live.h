/* build --table and plan --table: the live table applied to build options (cmd_build_live.c). */
#ifndef HFG_CLI_BUILD_LIVE_H
#define HFG_CLI_BUILD_LIVE_H

#include "cli/cli_hbase.h"
#include "hfilegen/build.h"

typedef struct cli_build_live {
  cli_hbase_args hb;
  hfg_hbase_table table;
  const uint8_t **keys;
  size_t *lens;
  hfg_build_family *fams;
} cli_build_live;

/* Looks the table up and sets o's split keys, table families and max file size (flags
 * given in argv win). Prints problems; returns 0, 1 (lookup failed) or 2 (usage). */
int cli_build_live_apply(cli_build_live *lv, hfg_build_options *o, int argc, char **argv,
                         const char *cmd);

void cli_build_live_free(cli_build_live *lv);

#endif
