/*
 * Inside the job-file loader (cli/opts.h cli_load_job): job_yaml.c reads the
 * YAML and checks its shape, opts.c applies each entry as its flag.
 */
#ifndef HFG_CLI_JOB_FILE_H
#define HFG_CLI_JOB_FILE_H

#include <stddef.h>

#include "hfilegen/build.h"

/* Where a job file's inputs and maps go: fixed arrays of `cap` entries, or
 * (grow) arrays reallocated as entries come. */
typedef struct cli_job_lists {
  const char ***inputs, ***maps;
  size_t *ninputs, *nmaps;
  size_t cap_inputs, cap_maps;
  int grow;
} cli_job_lists;

/* One entry `key: val` of the job file at path (the key's line): an input, a
 * map, the columns (comma-separated), a live-table key (cli_job_key_hook) or a
 * build flag (a flag without a value takes true or false). Copies val. Prints
 * the problem with the file and line and returns -1. (opts.c) */
int cli_job_apply(const char *path, unsigned long line, const char *key, const char *val,
                  hfg_build_options *o, cli_job_lists *jl);

/* Reads the YAML job file at path and applies its entries: a mapping of keys,
 * each once (block-size and block_size are one key, input and inputs too),
 * whose values are scalars, or lists of scalars for the keys that take many
 * (inputs, map, family-option, columns). Prints the problem naming the file,
 * the key and its line, and returns -1. (job_yaml.c) */
int cli_job_yaml_load(const char *path, hfg_build_options *o, cli_job_lists *jl);

#endif
