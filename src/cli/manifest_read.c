/* manifest.json read back: see manifest_read.h. */
#include "cli/manifest_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli/cli_util.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/escape.h"

void cli_manifest_free(cli_manifest *m) {
  for (size_t i = 0; i < m->nsplits; i++) hfg_free(m->splits[i]);
  hfg_free(m->splits);
  hfg_free(m->split_lens);
  memset(m, 0, sizeof *m);
  m->nfiles = m->records_written = -1;
}

static int read_splits(yaml_document_t *doc, yaml_node_t *v, cli_manifest *m) {
  size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
  m->splits = hfg_calloc(n + 1, sizeof *m->splits);
  m->split_lens = hfg_calloc(n + 1, sizeof *m->split_lens);
  if (!m->splits || !m->split_lens) return -1;
  m->has_splits = 1;
  for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
       it++) {
    yaml_node_t *e = yaml_document_get_node(doc, *it);
    hfg_buf b = HFG_BUF_INIT;
    size_t bad;
    if (e->type != YAML_SCALAR_NODE ||
        hfg_unescape(&b, (const char *)e->data.scalar.value, e->data.scalar.length, &bad)) {
      hfg_buf_free(&b);
      return -1;
    }
    m->splits[m->nsplits] = b.p ? b.p : hfg_calloc(1, 1);
    if (!m->splits[m->nsplits]) return -1;
    m->split_lens[m->nsplits++] = b.len;
  }
  return 0;
}

/* A whole non-negative decimal scalar (cli_parse_u64, the whole of its bytes), else -1. */
static long long scalar_count(const yaml_node_t *v) {
  uint64_t n;
  if (v->type != YAML_SCALAR_NODE ||
      strlen((const char *)v->data.scalar.value) != v->data.scalar.length ||
      cli_parse_u64((const char *)v->data.scalar.value, &n) || n > INT64_MAX)
    return -1;
  return (long long)n;
}

int cli_manifest_read(const char *path, cli_manifest *m) {
  memset(m, 0, sizeof *m);
  m->nfiles = m->records_written = -1;
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  yaml_parser_t p;
  yaml_document_t doc;
  int rc = -1;
  if (!yaml_parser_initialize(&p)) {
    fclose(f);
    return -1;
  }
  yaml_parser_set_input_file(&p, f);
  if (yaml_parser_load(&p, &doc)) {
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root && root->type == YAML_MAPPING_NODE) {
      rc = 0;
      for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
           !rc && pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
        yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
        if (k->type != YAML_SCALAR_NODE) continue;
        const char *name = (const char *)k->data.scalar.value;
        if (!strcmp(name, "splits") && v->type == YAML_SEQUENCE_NODE && !m->has_splits)
          rc = read_splits(&doc, v, m);
        else if (!strcmp(name, "files") && v->type == YAML_SEQUENCE_NODE)
          m->nfiles = v->data.sequence.items.top - v->data.sequence.items.start;
        else if (!strcmp(name, "records_written"))
          m->records_written = scalar_count(v);
      }
    }
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&p);
  fclose(f);
  if (rc) cli_manifest_free(m);
  return rc;
}
