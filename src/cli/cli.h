/*
 * The hfilegen command line: one file per command (cmd_<name>.c), each exposing
 * `int cmd_<name>(int argc, char **argv)` with argv[0] the command name. The
 * CLI owns all printing, exit codes and progress rendering; the library never
 * prints. Exit codes: 0 success, 1 the command ran and found a failure (verify
 * found a problem, build failed), 2 usage error.
 */
#ifndef HFG_CLI_H
#define HFG_CLI_H

int cmd_inspect(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_rekey(int argc, char **argv);
int cmd_splits(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_key(int argc, char **argv);
/* key --old-key P --rowkey T OLDKEY...: new keys of old ones (cmd_key_rekey.c) */
int cmd_key_rekey(int argc, char **argv);
int cmd_scan_ranges(int argc, char **argv);
int cmd_plan(int argc, char **argv);
/* splits --table T (no --regions): the live table's split points (cmd_splits_live.c) */
int cmd_splits_live_wanted(int argc, char **argv);
int cmd_splits_live(int argc, char **argv);

#endif
