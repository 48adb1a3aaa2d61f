/*
 * The flags each command takes, known in one place (cli_flags.c) for what is
 * the same in every command: GNU's --flag=value spelling, a value given to a
 * flag that takes none, and the nearest flag for a mistyped one.
 *
 * The commands keep their own parsing loops; cli_flags_normalize runs before
 * them (main.c, and bind.c for the Python front end) and rewrites
 * "--flag=value" into the two words "--flag" "value" that every loop and every
 * later look at argv (a job file's --job, --splits against --table, ...)
 * already reads. A flag missing from the tables still works as two words and
 * as --flag=value (it is split all the same); it only lacks its typo hint, and
 * a flag without a value would take --flag=x's x as an argument.
 */
#ifndef HFG_CLI_FLAGS_H
#define HFG_CLI_FLAGS_H

#include <stddef.h>

/* The command being run ("build" until cli_flags_normalize names another):
 * messages of shared parsers (opts.c) name it. */
extern const char *cli_command;

/* argv of command cmd (argv[0] is the command's name) with every
 * "--flag=value" word in a flag's place split in two; a word after a flag
 * that takes a value is that value and left as it is, as is everything after
 * a "--" word. *out is one allocation (free it). Sets cli_command. 0; 2 after
 * a message for --flag=x where flag takes no value; 1 out of memory (printed). */
int cli_flags_normalize(const char *cmd, int argc, char **argv, int *out_argc, char ***out);

/* 1 when flag (e.g. "--rowkey", "-o") of cmd takes a value, 0 when it takes
 * none, -1 when the tables do not know it. */
int cli_flag_takes_value(const char *cmd, const char *flag);

/* " (did you mean --splits?)" when cmd has flags within a small edit distance
 * of flag (ties all named: "--to or --top"), else "", into buf. */
const char *cli_flag_suggest(const char *cmd, const char *flag, char *buf, size_t cap);

/* " (a flag of plan, splits, lint, not of build)" when other commands take
 * flag (with --regions, for a command that takes --splits, how to get split
 * keys), else "", into buf. */
const char *cli_flag_elsewhere(const char *cmd, const char *flag, char *buf, size_t cap);

/* " (did you mean build?)" for a word within two edits of a command; for a
 * flag given before any command, which commands take it; else "", into buf. */
const char *cli_command_suggest(const char *word, char *buf, size_t cap);

/* "hfilegen CMD: unknown option '--split' (did you mean --splits?)" and a
 * pointer to the command's --help, on stderr. */
void cli_flag_unknown(const char *cmd, const char *flag);

#endif
