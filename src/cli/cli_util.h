/*
 * Printing helpers shared by `inspect` and `verify`: keys, type names, JSON
 * strings and number options. Bytes are always shown in the escaped form of
 * util/escape.h (printable ASCII as is, "\\", "\xNN").
 */
#ifndef HFG_CLI_UTIL_H
#define HFG_CLI_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parses a non-negative decimal integer; 0 or -1. */
int cli_parse_u64(const char *s, uint64_t *out);

/* KeyValue type name, or the decimal code in buf for other codes. */
const char *cli_type_name(uint8_t type, char buf[8]);

/* Writes a key as row/family:qualifier/timestamp/Type, all bytes escaped;
 * a malformed key as "<malformed key: hex>". */
void cli_print_key(FILE *f, const uint8_t *key, size_t len);

/* JSON string literal of the escaped form of p[0..n). */
void cli_json_bytes(FILE *f, const uint8_t *p, size_t n);
/* JSON string literal of a NUL-terminated text (a template, a path, a
 * message): UTF-8 as it is, only what JSON needs escaped; a byte that is not
 * UTF-8 as the text \xNN. */
void cli_json_str(FILE *f, const char *s);
/* A table, family or other name as a single-quoted hbase shell (Ruby) string:
 * quote and backslash escaped. */
void cli_ruby_sq(FILE *f, const char *s);
/* JSON string literal of a rendered key (cli_print_key's text). */
void cli_json_key(FILE *f, const uint8_t *key, size_t len);

/* Human-readable size: "123 B", "4.5 KiB", ... into buf. */
const char *cli_human(uint64_t n, char buf[32]);

/* After a template compile error naming "template position N": the template
 * and a caret under its N-th character, each line indented by two spaces
 * (nothing for a preset, whose positions are in its expansion). */
void cli_template_caret(FILE *f, const char *tmpl, const char *err);

/* Warns on stderr when the splits file at path holds no split point (the
 * build then writes one region); load errors are left to the command. */
void cli_warn_splits(const char *cmd, const char *path);

/* -1 (after a message on stderr, with the caret) when the rowkey template does
 * not compile whatever the columns are (a syntax error: a usage error, found
 * before any input is opened). 0 otherwise. */
int cli_check_rowkey_syntax(const char *cmd, const char *tmpl);

/* -1 (after a message on stderr) when the rowkey template does not compile
 * (cli_check_rowkey_syntax) or names no column ('id' for '{id}'): every record
 * would get the one rowkey. 0 otherwise. */
int cli_check_rowkey_columns(const char *cmd, const char *tmpl);

/* After "the template has no column 'x'" (a NAME=VALUE of key or scan-ranges):
 * "  the template's columns: 'a', 'b'" and a name that differs only in case or
 * blanks as "did you mean 'a'?", on f. Nothing for other messages. */
struct hfg_scheme;
void cli_template_columns_hint(FILE *f, const struct hfg_scheme *s, const char *err);

/* 1 when a job's error is a flag naming what the input's columns refuse: the
 * rowkey template ({nope}), a --map, --timestamp column:, --op-column or
 * --delete-if naming no column. Such a job exits 2 (a usage error), as the
 * pre-checks' do; other failures exit 1. */
int cli_is_usage_error(const char *err);

/* After a splits file error err: when it is about the keys' order, a line on f
 * saying how to sort them (HBase's byte order: LC_ALL=C sort -u). */
void cli_splits_hint(FILE *f, const char *cmd, const char *path, const char *err);

#endif
