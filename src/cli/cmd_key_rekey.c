/*
 * `hfilegen key --old-key PATTERN --rowkey TEMPLATE OLDKEY...`: the new key
 * of each old one under a re-keying (include/hfilegen/keyparse.h), one escaped
 * key a line, as the rekey job would make them. Old keys are arguments or,
 * for `-`, stdin lines, both with the \xNN escapes of split files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_flags.h"
#include "cli/cli_util.h"
#include "hfilegen/keyparse.h"
#include "util/buf.h"
#include "util/escape.h"

#define MAX_ROW 32767 /* HBase's longest row */

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen key --old-key PATTERN --rowkey TEMPLATE OLDKEY... (- reads stdin)\n"
          "\n"
          "Parses each old rowkey with PATTERN and prints, a line each, the new rowkey TEMPLATE\n"
          "builds from its fields (escaped: \\\\ and \\xNN). Old keys are written with the same\n"
          "escapes, one per argument or per stdin line. PATTERN: literal text and fields, {id}\n"
          "text, {id:long} / {id:int} / {id:short} Bytes.toBytes numbers, {x:bytes:N}, {_} a\n"
          "part to skip. A key that does not parse is named on stderr (exit 1).\n"
          "Example: hfilegen key --old-key '{_}|{id}' --rowkey '{id %% 100 :02}|{id}' '8|1420008'\n");
}

typedef struct rk {
  const hfg_keyparse *kp;
  const hfg_scheme *s;
  size_t read, rejected;
  uint8_t out[MAX_ROW + 1];
} rk;

/* The old key escaped, or with raw set the text as given (its escapes are
 * what is wrong), only bytes outside printable ASCII as \xNN. */
static void reject(rk *r, const char *where, const uint8_t *old, size_t len, int raw,
                   const char *why) {
  r->rejected++;
  fprintf(stderr, "hfilegen key: %s '", where);
  for (size_t i = 0; raw && i < len; i++)
    fprintf(stderr, old[i] >= 0x20 && old[i] < 0x7f ? "%c" : "\\x%02x", old[i]);
  if (!raw) hfg_escape_fputs(stderr, old, len);
  fprintf(stderr, "': %s\n", why);
}

/* The new key of one old key on stdout, or the reason on stderr. */
static int one(rk *r, const char *where, const uint8_t *old, size_t len) {
  r->read++;
  hfg_keyparse_result res;
  char why[512];
  if (hfg_keyparse_parse(r->kp, old, len, &res, why, sizeof why))
    return reject(r, where, old, len, 0, why), 0;
  size_t n = 0;
  int rc = hfg_scheme_eval(r->s, res.fields, hfg_keyparse_field_count(r->kp), r->out, MAX_ROW + 1,
                           &n, why, sizeof why);
  if (rc == HFG_ETOOBIG || (!rc && n > MAX_ROW))
    snprintf(why, sizeof why, "new rowkey longer than HBase's limit of %d bytes", MAX_ROW);
  else if (!rc && n == 0)
    snprintf(why, sizeof why, "empty new rowkey: HBase has no empty row");
  if (rc || n == 0 || n > MAX_ROW) return reject(r, where, old, len, 0, why), 0;
  char *esc = NULL;
  if (hfg_key_format(r->out, n, HFG_KEYFMT_ESCAPED, &esc)) {
    fprintf(stderr, "hfilegen key: out of memory\n");
    return -1;
  }
  puts(esc);
  hfg_scheme_buf_free(esc);
  return 0;
}

/* An escaped old key (an argument or a stdin line) through one(). */
static int escaped(rk *r, const char *where, const char *s, size_t n, hfg_buf *b) {
  hfg_buf_reset(b);
  size_t bad = 0;
  int rc = hfg_unescape(b, s, n, &bad);
  if (rc == HFG_EPARSE) {
    char why[96];
    snprintf(why, sizeof why, "bad escape at column %zu (write \\\\ for a backslash, \\xNN for a "
             "byte)", bad + 1);
    r->read++;
    reject(r, where, (const uint8_t *)s, n, 1, why);
    return 0;
  }
  if (rc) {
    fprintf(stderr, "hfilegen key: out of memory\n");
    return -1;
  }
  if (b->len == 0) {
    r->read++;
    reject(r, where, NULL, 0, 0, "no key (HBase has no empty row)");
    return 0;
  }
  return one(r, where, b->p, b->len);
}

static int from_stdin(rk *r, hfg_buf *b) {
  char *line = NULL, where[64];
  size_t cap = 0;
  ssize_t n;
  unsigned long lineno = 0;
  int rc = 0;
  while (!rc && (n = getline(&line, &cap, stdin)) >= 0) {
    lineno++;
    if (n > 0 && line[n - 1] == '\n') n--;
    if (n > 0 && line[n - 1] == '\r') n--;
    snprintf(where, sizeof where, "stdin line %lu", lineno);
    rc = escaped(r, where, line, (size_t)n, b);
  }
  free(line);
  if (!rc && ferror(stdin)) {
    fprintf(stderr, "hfilegen key: stdin: read error\n");
    rc = -1;
  }
  return rc;
}

/* "--name value" or "--name=value" at argv[*i]: the value (advancing *i), or NULL. */
static const char *flag(int argc, char **argv, int *i, const char *name, int *bad) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (strncmp(a, name, n)) return NULL;
  if (a[n] == '=') return a + n + 1;
  if (a[n]) return NULL;
  if (*i + 1 >= argc) {
    fprintf(stderr, "hfilegen key: %s needs a value\n", name);
    *bad = 1;
    return NULL;
  }
  return argv[++*i];
}

int cmd_key_rekey(int argc, char **argv) {
  const char *pat = NULL, *tmpl = NULL;
  char **keys = calloc((size_t)argc, sizeof *keys);
  size_t nkeys = 0;
  int bad = 0, opts = 1, stdin_seen = 0;
  if (!keys) return fprintf(stderr, "hfilegen key: out of memory\n"), 1;
  for (int i = 1; i < argc && !bad; i++) {
    const char *a = argv[i], *v;
    if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
      usage(stdout);
      free(keys);
      return 0;
    }
    if (opts && !strcmp(a, "--")) {
      opts = 0;
    } else if (opts && (v = flag(argc, argv, &i, "--old-key", &bad))) {
      pat = v;
    } else if (opts && (v = flag(argc, argv, &i, "--rowkey", &bad))) {
      tmpl = v;
    } else if (bad) {
      break;
    } else if (opts && a[0] == '-' && a[1] == '-') {
      char hint[256];
      fprintf(stderr, "hfilegen key: unknown option '%s'%s with --old-key (an old key starting "
              "with -- goes after --)\n", a, cli_flag_suggest("key", a, hint, sizeof hint));
      bad = 1;
    } else if (!strcmp(a, "-") && stdin_seen++) {
      fprintf(stderr, "hfilegen key: - (stdin) given twice: the second would read nothing\n");
      bad = 1;
    } else {
      keys[nkeys++] = argv[i];
    }
  }
  if (!bad && (!pat || !tmpl || !nkeys)) {
    fprintf(stderr, "hfilegen key: %s\n", !tmpl ? "--rowkey is required with --old-key"
                                          : !pat ? "--old-key is required"
                                                 : "no old key given (OLDKEY arguments, or - for stdin)");
    bad = 1;
  }
  if (bad) {
    usage(stderr);
    free(keys);
    return 2;
  }
  char err[1024], warn[1024];
  hfg_keyparse *kp = NULL;
  hfg_scheme *s = NULL;
  int rc = 2;
  if (hfg_keyparse_compile(pat, &kp, err, sizeof err)) {
    fprintf(stderr, "hfilegen key: --old-key: %s\n", err);
    cli_template_caret(stderr, pat, err);
  } else if (hfg_keyparse_rowkey(kp, tmpl, &s, err, sizeof err)) {
    fprintf(stderr, "hfilegen key: --rowkey: %s\n", err);
    cli_template_caret(stderr, tmpl, err);
  } else if (hfg_keyparse_check_rekey(kp, s, warn, sizeof warn, err, sizeof err)) {
    fprintf(stderr, "hfilegen key: %s\n", err);
  } else {
    if (warn[0]) fprintf(stderr, "hfilegen key: warning: %s\n", warn);
    rk *r = calloc(1, sizeof *r);
    hfg_buf b = HFG_BUF_INIT;
    rc = r ? 0 : -1;
    if (r) r->kp = kp, r->s = s;
    else fprintf(stderr, "hfilegen key: out of memory\n");
    for (size_t i = 0; i < nkeys && !rc; i++) {
      char where[64];
      snprintf(where, sizeof where, "old key %zu", i + 1);
      rc = strcmp(keys[i], "-") ? escaped(r, where, keys[i], strlen(keys[i]), &b)
                                : from_stdin(r, &b);
    }
    if (!rc && fflush(stdout)) {
      fprintf(stderr, "hfilegen key: stdout: write error\n");
      rc = -1;
    }
    if (!rc && r->rejected)
      fprintf(stderr, "hfilegen key: %zu of %zu old keys rejected\n", r->rejected, r->read);
    rc = rc ? 1 : r->rejected ? 1 : 0;
    hfg_buf_free(&b);
    free(r);
  }
  hfg_scheme_free(s);
  hfg_keyparse_free(kp);
  free(keys);
  return rc;
}
