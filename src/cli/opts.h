/* Flag parsing shared by the build-like commands, and the YAML job file. */
#ifndef HFG_CLI_OPTS_H
#define HFG_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/build.h"

extern int cli_quiet;
extern int cli_no_progress; /* --progress none: no progress lines (summary and warnings stay) */

/* Parses "64k", "4g", "1048576" (binary units). 0 ok, -1 bad. */
int cli_parse_size(const char *s, uint64_t *out);

/* Applies one build flag `a` with value `v` (may be NULL); advances *i past a
 * consumed value. Prints the problem and returns -1 on a bad flag. */
int cli_apply_build_flag(hfg_build_options *o, const char *a, const char *v, const char **maps,
                         size_t *nmaps, char ***cols, int *i);

/* Loads a YAML job file: a mapping whose keys are the build flags without
 * the leading dashes (block-size or block_size), scalars or lists of scalars;
 * "inputs" lists the input files. Prints the problem with the file and line
 * and returns -1 on error, also when the file holds more than `cap` inputs or
 * maps. Strings stay valid until cli_free_columns. */
int cli_load_job(const char *path, hfg_build_options *o, const char **inputs, size_t *ninputs,
                 const char **maps, size_t *nmaps, size_t cap);

/* The job file named by `--job` in argv (the last one), loaded before the
 * other flags are applied so that they override it. Allocates *inputs and
 * *maps (the caller frees them) holding the job's entries, however many, with
 * room for argc more each (every word of the command line). Prints the problem
 * and returns -1 on error (the arrays may then still need freeing). */
int cli_load_job_args(int argc, char **argv, hfg_build_options *o, const char ***inputs,
                      size_t *ninputs, const char ***maps, size_t *nmaps);

/* Keys of the next job file that a command takes besides the build flags (build
 * and plan: the live-table keys of cli_hbase.h): fn gets each key as its flag
 * ("--table") and value, and returns 1 taken, 0 not its own, -1 bad (printed).
 * Cleared after every load. */
typedef int (*cli_job_key_fn)(void *ctx, const char *flag, const char *value);
void cli_job_key_hook(cli_job_key_fn fn, void *ctx);

void cli_free_columns(char **cols, hfg_build_options *o);

/* After all flags (o->inputs set): --incremental append needs --check-column
 * and database inputs; --last-value-from's column must match. Prints the
 * problem and returns -1. */
int cli_check_incremental(hfg_build_options *o);

#endif
