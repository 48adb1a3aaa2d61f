/* Signals during a job (build, rekey): SIGINT, SIGTERM and SIGHUP set
 * cli_interrupted, the job's cancel flag; see cli_signals.c. */
#ifndef HFG_CLI_SIGNALS_H
#define HFG_CLI_SIGNALS_H

#include <signal.h>

#include "hfilegen/build.h"

extern volatile sig_atomic_t cli_interrupted;

/* Before the job: the handlers, and the thread that removes o's staging
 * directory and spill runs on Ctrl-C twice ("hfilegen CMD: ..."). */
void cli_signals_begin(const char *cmd, const hfg_build_options *o);
/* After it: the handlers as they were, the thread gone. */
void cli_signals_end(void);
const char *cli_signal_name(int sig);

#endif
