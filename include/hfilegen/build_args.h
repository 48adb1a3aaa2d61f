/*
 * The command line of `hfilegen build` as a library call, for runners other
 * than the CLI (the Python bindings and the Spark job in python/): the same
 * job file and flags mean the same hfg_build_options in both, parsed by the
 * same code. Implemented in src/cli/bind.c, shipped in libhfilegen only.
 *
 *   parse → (set_source) → check → options / getters → free
 *
 * Unlike the rest of the library, parse and check print their problems to
 * stderr exactly as `hfilegen build` prints them (they are the CLI's own
 * messages).
 */
#ifndef HFILEGEN_BUILD_ARGS_H
#define HFILEGEN_BUILD_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/build.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

typedef struct hfg_build_args hfg_build_args;

/* argv as `hfilegen build` takes it (argv[0] is the command name; --job FILE
 * reads a job file, later flags override it). NULL on a bad flag (printed).
 * Every string the options point to is owned by the result; free it with
 * hfg_build_args_free. */
hfg_build_args *hfg_build_args_parse(int argc, char **argv);
/* hfg_build_args_free(NULL) is a no-op. */
void hfg_build_args_free(hfg_build_args *a);

/* The parsed options, borrowed until hfg_build_args_free or set_source. */
const hfg_build_options *hfg_build_args_options(const hfg_build_args *a);

/* What `hfilegen build` checks before it reads anything, with its messages:
 * the flags it needs and a rowkey that uses a column (2); with files != 0,
 * every input file can be opened (1) and --rejects is none of them (2).
 * job_file: --job's file, or NULL. 0 when all is well. */
int hfg_build_args_check(const hfg_build_args *a, const char *job_file, int files);

/* Getters (strings borrowed as above; NULL when unset or out of range). */
size_t hfg_build_args_ninputs(const hfg_build_args *a);
const char *hfg_build_args_input(const hfg_build_args *a, size_t i);
const char *hfg_build_args_out(const hfg_build_args *a);
const char *hfg_build_args_rejects(const hfg_build_args *a);
uint64_t hfg_build_args_max_rejects(const hfg_build_args *a);
int hfg_build_args_format(const hfg_build_args *a); /* HFG_BUILD_CSV, ... */
const char *hfg_build_args_null_string(const hfg_build_args *a);
size_t hfg_build_args_ncolumns(const hfg_build_args *a);
const char *hfg_build_args_column(const hfg_build_args *a, size_t i);
/* 1 when --quiet was given to the last parse (process-wide, as in the CLI). */
int hfg_build_args_quiet(void);

/* Replaces the inputs and the column names (no header is read): a job whose
 * inputs another reader reads (Parquet, ORC in Spark), keyed by name through
 * hfg_batch_key_nulls. Copies every string. 0, or -1 when out of memory (the
 * old lists stay). */
int hfg_build_args_set_source(hfg_build_args *a, size_t ninputs, const char *const *inputs,
                              size_t ncols, const char *const *cols);

/* A size as the flags take it ("64k", "10g", "1048576") into *out: 0, or -1
 * when s is not a size. */
int hfg_parse_size(const char *s, uint64_t *out);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
