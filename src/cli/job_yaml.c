/*
 * The YAML job file (cli/job_file.h): libyaml's document, checked for what
 * YAML itself lets through but a job cannot mean (a key given twice, of which
 * YAML keeps the last; a list or a mapping where one value goes), then applied
 * entry by entry (opts.c cli_job_apply).
 */
#include "cli/job_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli/cli_flags.h"

/* The key as the setting it names: '_' as '-', "input" as "inputs". */
static void setting(const char *key, char *out, size_t cap) {
  const char *k = !strcmp(key, "input") ? "inputs" : key;
  size_t n = 0;
  for (; k[n] && n + 1 < cap; n++) out[n] = k[n] == '_' ? '-' : k[n];
  out[n] = '\0';
}

/* The settings that take many entries (a list), as their flags do. */
static int takes_list(const char *s) {
  return !strcmp(s, "inputs") || !strcmp(s, "map") || !strcmp(s, "family-option") ||
         !strcmp(s, "columns");
}

static unsigned long line_of(const yaml_node_t *n) {
  return (unsigned long)n->start_mark.line + 1;
}

static const char *text(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }

typedef struct walk {
  const char *path;
  yaml_document_t *doc;
  unsigned char *seen; /* a mapping or list looked at once, however many aliases name it */
  size_t nnodes;
} walk;

/* Every mapping at or below n holds each key once (top: the root mapping,
 * whose keys compare as settings: block-size and block_size are one). within:
 * the top-level key above n, NULL at the root. */
static int dup_keys(walk *w, yaml_node_t *n, int top, const char *within, int depth) {
  size_t id = (size_t)(n - w->doc->nodes.start);
  if (depth > 64 || id >= w->nnodes || w->seen[id]) return 0;
  w->seen[id] = 1;
  if (n->type == YAML_SEQUENCE_NODE) {
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++) {
      yaml_node_t *e = yaml_document_get_node(w->doc, *it);
      if (e && dup_keys(w, e, 0, within, depth + 1)) return -1;
    }
    return 0;
  }
  if (n->type != YAML_MAPPING_NODE) return 0;
  for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = yaml_document_get_node(w->doc, pr->key);
    yaml_node_t *v = yaml_document_get_node(w->doc, pr->value);
    if (k && k->type == YAML_SCALAR_NODE) {
      char ks[256], qs[256];
      setting(text(k), ks, sizeof ks);
      for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < pr; q++) {
        yaml_node_t *kq = yaml_document_get_node(w->doc, q->key);
        if (!kq || kq->type != YAML_SCALAR_NODE) continue;
        setting(text(kq), qs, sizeof qs);
        if (top ? strcmp(ks, qs) : strcmp(text(k), text(kq))) continue;
        fprintf(stderr, "hfilegen %s: job file %s line %lu: key '%s'", cli_command, w->path,
                line_of(k), text(k));
        if (within) fprintf(stderr, " (in '%s')", within);
        if (strcmp(text(k), text(kq)))
          fprintf(stderr, " sets '%s' of line %lu again", text(kq), line_of(kq));
        else
          fprintf(stderr, " given twice (first on line %lu)", line_of(kq));
        fputs(": give each key once (YAML would keep one of them and drop the other "
              "silently)\n", stderr);
        return -1;
      }
    }
    const char *below = within ? within : k && k->type == YAML_SCALAR_NODE ? text(k) : "?";
    if (v && dup_keys(w, v, 0, below, depth + 1)) return -1;
  }
  return 0;
}

/* A template written unquoted in YAML (rowkey: {id % 10}|{id}) is a flow
 * mapping, and libyaml's message ("did not find expected key") does not say
 * so. Prints the hint for the key on line `line` (1-based) of the job file
 * when its value starts with '{': quote the template for the rowkey, write
 * COL=FAMILY:QUALIFIER for a map entry, quote the value for any other key. */
static void brace_hint(const char *path, unsigned long line) {
  FILE *f = fopen(path, "r");
  char buf[4096];
  unsigned long n = 0;
  if (!f) return;
  while (fgets(buf, sizeof buf, f) && ++n < line) {}
  fclose(f);
  if (n != line) return;
  buf[strcspn(buf, "\r\n")] = '\0';
  char *k = buf;
  while (*k == ' ' || *k == '\t') k++;
  char *c = strchr(k, ':');
  if (*k == '#' || *k == '{' || !c) return;
  const char *v = c + 1;
  while (*v == ' ' || *v == '\t') v++;
  if (*v != '{') return;
  *c = '\0';
  char s[128];
  setting(k, s, sizeof s);
  fprintf(stderr, "hfilegen %s: job file %s line %lu: a value that starts with '{' is a YAML "
          "mapping: ", cli_command, path, line);
  if (!strcmp(s, "rowkey"))
    fprintf(stderr, "quote the template, e.g. rowkey: \"{id %% 10}|{id}\"\n");
  else if (!strcmp(s, "map"))
    fprintf(stderr, "a map entry is one COL=FAMILY:QUALIFIER string, e.g. map: [\"note=d:note\"] "
            "or a line '- note=d:note' per column\n");
  else
    fprintf(stderr, "quote the value, e.g. %s: \"%.60s\"\n", k, v);
}

/* A mapping `{note: d:note}` (or `note: d:note` in a list) given as a map
 * entry: the COL=FAMILY:QUALIFIER it likely meant, into buf, else "". */
static const char *map_meant(yaml_document_t *doc, const yaml_node_t *m, char *buf, size_t cap) {
  buf[0] = '\0';
  if (m->type != YAML_MAPPING_NODE || m->data.mapping.pairs.top == m->data.mapping.pairs.start)
    return buf;
  yaml_node_pair_t *pr = m->data.mapping.pairs.start;
  yaml_node_t *k = yaml_document_get_node(doc, pr->key);
  yaml_node_t *v = yaml_document_get_node(doc, pr->value);
  if (k && v && k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE)
    snprintf(buf, cap, "%s=%s", text(k), text(v));
  return buf;
}

/* The value v of top-level key k has the shape its setting takes: one value
 * (a scalar), or for the list settings a scalar or a list of scalars. Prints
 * what is wrong and the fix, and returns -1. */
static int check_shape(const char *path, yaml_document_t *doc, yaml_node_t *k, yaml_node_t *v) {
  const char *key = text(k);
  char s[256], meant[512];
  setting(key, s, sizeof s);
  unsigned long line = line_of(k);
  const char *cmd = cli_command;
  char flag[260];
  snprintf(flag, sizeof flag, "--%.256s", s);
  if (v->type == YAML_SCALAR_NODE) return 0;
  if (!takes_list(s) && cli_flag_takes_value("build", flag) < 0) {
    char hint[256], *h = hint;
    cli_flag_suggest("build", flag, hint, sizeof hint);
    for (char *p = hint; *p; p++) /* the keys, not the flags: "did you mean codec?" */
      if (!(p[0] == '-' && p[1] == '-' && p > hint && p[-1] == ' ')) *h++ = *p;
      else p++;
    *h = '\0';
    fprintf(stderr, "hfilegen %s: job file %s line %lu: unknown key '%s'%s\n", cmd, path, line,
            key, hint);
    return -1;
  }
  if (v->type == YAML_MAPPING_NODE) {
    if (!strcmp(s, "rowkey")) {
      fprintf(stderr, "hfilegen %s: job file %s line %lu: a value that starts with '{' is a YAML "
              "mapping: quote the template of key '%s', e.g. rowkey: \"{id %% 10}|{id}\"\n",
              cmd, path, line, key);
      return -1;
    }
    fprintf(stderr, "hfilegen %s: job file %s line %lu: key '%s' ", cmd, path, line, key);
    if (!strcmp(s, "map") && *map_meant(doc, v, meant, sizeof meant))
      fprintf(stderr, "takes COL=FAMILY:QUALIFIER entries, not a YAML mapping: write map: "
              "[\"%s\"] (or a line '- %s' per column)\n", meant, meant);
    else if (takes_list(s))
      fprintf(stderr, "takes a list of values, not a YAML mapping: write %s: [\"a\", \"b\"] (or "
              "a line '- a' per entry)\n", key);
    else
      fprintf(stderr, "takes one value, not a YAML mapping: quote a value that starts with "
              "'{', e.g. %s: \"{...}\"\n", key);
    return -1;
  }
  if (v->type != YAML_SEQUENCE_NODE) return 0;
  yaml_node_item_t *first = v->data.sequence.items.start, *end = v->data.sequence.items.top;
  if (!takes_list(s)) {
    yaml_node_t *e = first < end ? yaml_document_get_node(doc, *first) : NULL;
    fprintf(stderr, "hfilegen %s: job file %s line %lu: key '%s' takes one value, not a list",
            cmd, path, line, key);
    if (end - first == 1 && e && e->type == YAML_SCALAR_NODE)
      fprintf(stderr, ": write %s: %s\n", key, text(e));
    else
      fputs(" (a flag given twice keeps the last: say which one)\n", stderr);
    return -1;
  }
  for (yaml_node_item_t *it = first; it < end; it++) {
    yaml_node_t *e = yaml_document_get_node(doc, *it);
    if (!e || e->type == YAML_SCALAR_NODE) continue;
    fprintf(stderr, "hfilegen %s: job file %s line %lu: key '%s': the entry on line %lu is a "
            "YAML %s, not one value", cmd, path, line, key, line_of(e),
            e->type == YAML_MAPPING_NODE ? "mapping" : "list");
    if (!strcmp(s, "map") && *map_meant(doc, e, meant, sizeof meant))
      fprintf(stderr, ": write '- %s' (COL=FAMILY:QUALIFIER)\n", meant);
    else
      fputs(" (quote an entry that starts with '{' or '[')\n", stderr);
    return -1;
  }
  return 0;
}

/* The entries of top-level key k, value v (shape checked), applied. */
static int apply(const char *path, yaml_document_t *doc, yaml_node_t *k, yaml_node_t *v,
                 hfg_build_options *o, cli_job_lists *jl) {
  const char *key = text(k);
  if (v->type == YAML_SCALAR_NODE && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
    const char *t = text(v); /* YAML's null: no value, not the text "~" or "null" */
    if (!*t || !strcmp(t, "~") || !strcmp(t, "null") || !strcmp(t, "Null") ||
        !strcmp(t, "NULL")) {
      fprintf(stderr,
              "hfilegen: job file %s line %lu: key '%s' has no value (YAML null '%s'): give "
              "one, quoted if it is that text, or remove the key\n",
              path, line_of(k), key, t);
      return -1;
    }
  }
  if (v->type == YAML_SCALAR_NODE) return cli_job_apply(path, line_of(k), key, text(v), o, jl);
  if (v->type != YAML_SEQUENCE_NODE) return 0;
  yaml_node_item_t *first = v->data.sequence.items.start, *end = v->data.sequence.items.top;
  char s[256];
  setting(key, s, sizeof s);
  if (!strcmp(s, "columns")) { /* joined into the comma form */
    size_t n = 1;
    for (yaml_node_item_t *it = first; it < end; it++) {
      yaml_node_t *e = yaml_document_get_node(doc, *it);
      if (strchr(text(e), ',')) { /* the list is joined with commas: one name an entry */
        fprintf(stderr,
                "hfilegen: job file %s line %lu: columns entry '%s' holds a comma: give one "
                "column name an entry\n",
                path, line_of(e), text(e));
        return -1;
      }
      n += strlen(text(e)) + 1;
    }
    char *all = malloc(n);
    if (!all) {
      fprintf(stderr, "hfilegen: job file %s: out of memory\n", path);
      return -1;
    }
    size_t at = 0;
    for (yaml_node_item_t *it = first; it < end; it++)
      at += (size_t)sprintf(all + at, "%s%s", at ? "," : "", text(yaml_document_get_node(doc, *it)));
    all[at] = '\0';
    int rc = cli_job_apply(path, line_of(k), key, all, o, jl);
    free(all);
    return rc;
  }
  for (yaml_node_item_t *it = first; it < end; it++) {
    yaml_node_t *e = yaml_document_get_node(doc, *it);
    if (cli_job_apply(path, line_of(e), key, text(e), o, jl)) return -1;
  }
  return 0;
}

int cli_job_yaml_load(const char *path, hfg_build_options *o, cli_job_lists *jl) {
  const char *cmd = cli_command;
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "hfilegen %s: job file %s: %s\n", cmd, path, strerror(errno));
    return -1;
  }
  yaml_parser_t p;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&p)) {
    fprintf(stderr, "hfilegen %s: job file %s: out of memory\n", cmd, path);
    fclose(f);
    return -1;
  }
  yaml_parser_set_input_file(&p, f);
  int rc = -1;
  if (!yaml_parser_load(&p, &doc)) {
    fprintf(stderr, "hfilegen %s: job file %s line %lu: %s\n", cmd, path,
            (unsigned long)p.problem_mark.line + 1, p.problem ? p.problem : "YAML error");
    brace_hint(path, (unsigned long)p.problem_mark.line + 1);
    if (p.context_mark.line != p.problem_mark.line)
      brace_hint(path, (unsigned long)p.context_mark.line + 1);
    goto out;
  }
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    fprintf(stderr, "hfilegen %s: job file %s: expected a mapping of settings\n", cmd, path);
    goto doc;
  }
  walk w = {path, &doc, NULL, (size_t)(doc.nodes.top - doc.nodes.start)};
  w.seen = calloc(w.nnodes ? w.nnodes : 1, 1);
  if (!w.seen) {
    fprintf(stderr, "hfilegen %s: job file %s: out of memory\n", cmd, path);
    goto doc;
  }
  int bad = dup_keys(&w, root, 1, NULL, 0);
  free(w.seen);
  if (bad) goto doc;
  yaml_node_pair_t *start = root->data.mapping.pairs.start, *top = root->data.mapping.pairs.top;
  for (yaml_node_pair_t *pr = start; pr < top; pr++) { /* every shape before any entry */
    yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
    yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
    if (k->type != YAML_SCALAR_NODE) {
      fprintf(stderr, "hfilegen %s: job file %s line %lu: keys must be scalars\n", cmd, path,
              line_of(k));
      goto doc;
    }
    if (check_shape(path, &doc, k, v)) goto doc;
  }
  rc = 0;
  for (yaml_node_pair_t *pr = start; !rc && pr < top; pr++)
    rc = apply(path, &doc, yaml_document_get_node(&doc, pr->key),
               yaml_document_get_node(&doc, pr->value), o, jl);
doc:
  yaml_document_delete(&doc);
out:
  yaml_parser_delete(&p);
  fclose(f);
  return rc;
}
