/*
 * Checks of a build's (and plan's) inputs and paths made by the CLI before the
 * job starts (cli_checks.c). Each prints its own message on stderr.
 */
#ifndef HFG_CLI_CHECKS_H
#define HFG_CLI_CHECKS_H

#include <stddef.h>

#include "hfilegen/build.h"

/* Every input file (not "-", not a database URI) can be opened and is not a
 * directory; one file (or one database query) given twice is warned about.
 * With a job file, a missing relative path adds that such paths are relative
 * to the working directory. 0; 1 after a message (a file cannot be read); 2
 * (stdin given twice). */
int cli_check_inputs(const char *const *inputs, size_t n, const char *job_file);

/* The --deletes file (not a URI) can be opened and is not a directory: 1 after
 * a message, else 0. */
int cli_check_deletes(const hfg_build_options *o);

/* --rejects naming an input, the splits file, the job file or the --deletes
 * file: 2 after a message, else 0. */
int cli_check_rejects_path(const hfg_build_options *o, const char *job_file);

/* Warnings: a MySQL dump whose first line ends in CR LF without
 * --lines-terminated-by; a header column without a name (an empty qualifier)
 * or holding a CR (CR-only line ends). */
void cli_warn_mysql_crlf(const hfg_build_options *o);
void cli_warn_unnamed_columns(const hfg_build_options *o);

/* --columns without --header on a file whose first record holds exactly those
 * names (case and blanks aside): a header that would be read as a record.
 * 2 after a message naming the file and line and the fix; 0 otherwise (stdin
 * and database inputs are not looked at). cmd names the command. */
int cli_check_header_as_data(const char *cmd, const hfg_build_options *o);
/* With a header, every regular-file input's header equals the first input's,
 * checked before the job reads a record (the reader finds a differing one only
 * when it comes to that input: hours into a large job). 1 (said) or 0. */
int cli_check_headers(const char *cmd, const hfg_build_options *o);

/* --format with database inputs only, whose rows come typed from the server:
 * 2 after a message naming both; with files too, a note. 0 otherwise. */
int cli_check_db_format(const char *cmd, const hfg_build_options *o);

/* A --family-option whose family gets no column (neither the default family
 * nor one a --map names): 2 after a message naming the flag, the family, the
 * key, the value and the families there are. 0 otherwise. */
int cli_check_family_options(const char *cmd, const hfg_build_options *o);

/* --tmp-dir not a writable directory, --rejects (outside the output
 * directory) not a file that can be written: 1 after a message, before the
 * build takes the output directory. 0 otherwise. */
int cli_check_work_paths(const char *cmd, const hfg_build_options *o);

#endif
