/*
 * `hfilegen key`: the rowkey a template gives for field values, as escaped
 * text, hex, an hbase shell `get` and a Java byte literal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_flags.h"
#include "cli/cli_util.h"
#include "hfilegen/scheme.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen key --rowkey TEMPLATE [--table T] NAME=VALUE ...\n"
          "       hfilegen key --old-key PATTERN --rowkey TEMPLATE OLDKEY...\n"
          "\n"
          "Prints the rowkey the template builds from the given values: escaped text\n"
          "(\\\\ and \\xNN), hex, an hbase shell get and a Java byte literal.\n"
          "Example: hfilegen key --rowkey '{id %% 10}|{id}' id=1420008\n"
          "With --old-key: the new rowkey of each old one (a re-keying), one a line;\n"
          "hfilegen key --old-key x --help tells more.\n");
}

int cmd_key(int argc, char **argv) {
  for (int i = 1; i < argc; i++) /* re-keying old keys: cmd_key_rekey.c */
    if (!strcmp(argv[i], "--old-key") || !strncmp(argv[i], "--old-key=", 10))
      return cmd_key_rekey(argc, argv);
  const char *tmpl = NULL, *table = "t";
  hfg_named_value *vals = calloc((size_t)argc, sizeof *vals);
  char **names = calloc((size_t)argc, sizeof *names);
  size_t n = 0;
  int rc = 2;
  if (!vals || !names) {
    fprintf(stderr, "hfilegen key: out of memory\n");
    goto out;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      rc = 0;
      goto out;
    }
    if (!strcmp(a, "--rowkey") || !strcmp(a, "--table")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "hfilegen key: %s needs a value\n", a);
        goto out;
      }
      *(!strcmp(a, "--rowkey") ? &tmpl : &table) = argv[++i];
      continue;
    }
    const char *eq = strchr(a, '=');
    if (a[0] == '-' && a[1] == '-') {
      cli_flag_unknown("key", a);
      goto out;
    }
    if (a[0] == '-' || !eq || eq == a) {
      fprintf(stderr, "hfilegen key: expected NAME=VALUE, got '%s'\n", a);
      usage(stderr);
      goto out;
    }
    names[n] = strndup(a, (size_t)(eq - a));
    if (!names[n]) goto out;
    vals[n] = (hfg_named_value){names[n], {eq + 1, strlen(eq + 1), 0}};
    n++;
  }
  if (!tmpl) {
    fprintf(stderr, "hfilegen key: --rowkey is required\n");
    usage(stderr);
    goto out;
  }
  char err[512];
  hfg_scheme *s;
  if (hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) {
    fprintf(stderr, "hfilegen key: --rowkey: %s\n", err);
    cli_template_caret(stderr, tmpl, err);
    goto out;
  }
  uint8_t *key = NULL;
  size_t len = 0;
  int r = hfg_scheme_key(s, vals, n, &key, &len, err, sizeof err);
  if (!r && len == 0) { /* build rejects such a record: HBase has no empty row */
    snprintf(err, sizeof err, "empty rowkey: HBase has no empty row, so build rejects the record");
    hfg_scheme_buf_free(key);
    r = HFG_EPARSE;
  }
  if (r) {
    fprintf(stderr, "hfilegen key: %s\n", err);
    cli_template_columns_hint(stderr, s, err);
    rc = r == HFG_EINVAL ? 2 : 1;
    hfg_scheme_free(s);
    goto out;
  }
  char *esc = NULL, *sh = NULL, *java = NULL;
  if (hfg_key_format(key, len, HFG_KEYFMT_ESCAPED, &esc) ||
      hfg_key_format(key, len, HFG_KEYFMT_SHELL, &sh) || hfg_key_format(key, len, HFG_KEYFMT_JAVA, &java)) {
    fprintf(stderr, "hfilegen key: out of memory\n");
    rc = 1;
  } else {
    printf("rowkey:  %s\n", esc);
    printf("length:  %zu\n", len);
    printf("hex:     ");
    for (size_t i = 0; i < len; i++) printf("%02x", key[i]);
    printf("\nshell:   get ");
    cli_ruby_sq(stdout, table);
    printf(", %s\n", sh);
    printf("java:    %s\n", java);
    rc = 0;
  }
  hfg_scheme_buf_free(esc);
  hfg_scheme_buf_free(sh);
  hfg_scheme_buf_free(java);
  hfg_scheme_buf_free(key);
  hfg_scheme_free(s);
out:
  for (size_t i = 0; names && i < n; i++) free(names[i]);
  free(names);
  free(vals);
  return rc;
}
