/*
 * hbase-site.xml (Hadoop Configuration XML) for the client's settings, parsed
 * with expat: only <configuration>/<property>/<name> and <value> text is used;
 * <final>, <description> and other elements are skipped. Later properties
 * override earlier ones, as Configuration does within one file.
 */
#include <errno.h>
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hfilegen/hbase.h"

typedef struct site_parse {
  XML_Parser p;
  hfg_hbase_site *out;
  int depth;
  int in_property, in_name, in_value;
  char name[256];
  size_t name_len;
  char value[4096];
  size_t value_len;
  int too_long;
  char *err;
  size_t err_cap;
  const char *path;
  int failed;
} site_parse;

static void fail(site_parse *s, const char *fmt, const char *arg) {
  if (s->failed) return;
  s->failed = 1;
  char msg[600];
  snprintf(msg, sizeof msg, fmt, arg);
  snprintf(s->err, s->err_cap, "%s line %lu: %s", s->path,
           (unsigned long)XML_GetCurrentLineNumber(s->p), msg);
  XML_StopParser(s->p, XML_FALSE);
}

static void XMLCALL on_start(void *ud, const XML_Char *el, const XML_Char **attr) {
  (void)attr;
  site_parse *s = ud;
  s->depth++;
  if (s->depth == 1 && strcmp(el, "configuration"))
    fail(s, "expected <configuration>, found <%s>", el);
  else if (s->depth == 2 && !strcmp(el, "property")) {
    s->in_property = 1;
    s->name_len = s->value_len = 0;
    s->name[0] = s->value[0] = '\0';
    s->too_long = 0;
  } else if (s->depth == 3 && s->in_property) {
    s->in_name = !strcmp(el, "name");
    s->in_value = !strcmp(el, "value");
  }
}

static void trim(char *v) {
  size_t n = strlen(v), a = 0;
  while (n && (v[n - 1] == ' ' || v[n - 1] == '\n' || v[n - 1] == '\t' || v[n - 1] == '\r'))
    v[--n] = '\0';
  while (v[a] == ' ' || v[a] == '\n' || v[a] == '\t' || v[a] == '\r') a++;
  if (a) memmove(v, v + a, n - a + 1);
}

static int is_true(const char *v) { return !strcasecmp(v, "true"); }

static void apply(site_parse *s) {
  trim(s->name);
  trim(s->value);
  const char *n = s->name, *v = s->value;
  hfg_hbase_site *o = s->out;
  struct {
    const char *key;
    char *dst;
    size_t cap;
  } strs[] = {
      {"hbase.zookeeper.quorum", o->quorum, sizeof o->quorum},
      {"zookeeper.znode.parent", o->znode_parent, sizeof o->znode_parent},
      {"hbase.security.authentication", o->authentication, sizeof o->authentication},
      {"hbase.rpc.protection", o->rpc_protection, sizeof o->rpc_protection},
      {"hbase.io.compress.zstd.codec", o->zstd_codec, sizeof o->zstd_codec},
  };
  int known = 0;
  for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
    if (strcmp(n, strs[i].key)) continue;
    known = 1;
    if (strlen(v) >= strs[i].cap) return fail(s, "the value of %s is too long", n);
    snprintf(strs[i].dst, strs[i].cap, "%s", v);
  }
  if (!strcmp(n, "hbase.rpc.tls.enabled") || !strcmp(n, "hbase.client.netty.tls.enabled")) {
    known = 1;
    o->tls_enabled = is_true(v);
  }
  int is_port = !strcmp(n, "hbase.zookeeper.property.clientPort");
  int is_size = !strcmp(n, "hbase.hregion.max.filesize");
  if (is_port || is_size) {
    known = 1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (!*v || *end || errno || (is_port && (x == 0 || x > 65535)))
      return fail(s, "%s: not a number", n);
    if (is_port) o->client_port = (unsigned)x;
    else o->max_file_size = x;
  }
  if (known && strstr(v, "${")) fail(s, "%s uses ${...} substitution, which is not supported", n);
  if (known && s->too_long) fail(s, "the value of %s is too long", n);
}

static void XMLCALL on_end(void *ud, const XML_Char *el) {
  site_parse *s = ud;
  if (s->depth == 3) s->in_name = s->in_value = 0;
  if (s->depth == 2 && s->in_property && !strcmp(el, "property")) {
    s->in_property = 0;
    if (s->name_len) apply(s);
  }
  s->depth--;
}

static void XMLCALL on_text(void *ud, const XML_Char *t, int len) {
  site_parse *s = ud;
  char *dst = s->in_name ? s->name : s->in_value ? s->value : NULL;
  if (!dst) return;
  size_t *n = s->in_name ? &s->name_len : &s->value_len;
  size_t cap = s->in_name ? sizeof s->name : sizeof s->value;
  if (*n + (size_t)len >= cap) {
    s->too_long = 1;
    return;
  }
  memcpy(dst + *n, t, (size_t)len);
  *n += (size_t)len;
  dst[*n] = '\0';
}

int hfg_hbase_site_load(const char *path, hfg_hbase_site *out, char *err, size_t err_cap) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, err_cap, "%s: %s", path, strerror(errno));
    return -1;
  }
  site_parse s;
  memset(&s, 0, sizeof s);
  s.out = out;
  s.err = err;
  s.err_cap = err_cap;
  s.path = path;
  s.p = XML_ParserCreate(NULL);
  if (!s.p) {
    fclose(f);
    snprintf(err, err_cap, "out of memory");
    return -1;
  }
  XML_SetUserData(s.p, &s);
  XML_SetElementHandler(s.p, on_start, on_end);
  XML_SetCharacterDataHandler(s.p, on_text);
  char buf[16384];
  int done = 0;
  while (!done && !s.failed) {
    size_t n = fread(buf, 1, sizeof buf, f);
    if (ferror(f)) {
      snprintf(err, err_cap, "%s: read error", path);
      s.failed = 1;
      break;
    }
    done = n < sizeof buf;
    if (XML_Parse(s.p, buf, (int)n, done) == XML_STATUS_ERROR && !s.failed) {
      snprintf(err, err_cap, "%s line %lu: not well-formed XML: %s", path,
               (unsigned long)XML_GetCurrentLineNumber(s.p), XML_ErrorString(XML_GetErrorCode(s.p)));
      s.failed = 1;
    }
  }
  XML_ParserFree(s.p);
  fclose(f);
  return s.failed ? -1 : 0;
}

const char *hfg_hbase_site_unsupported(const hfg_hbase_site *s) {
  if (s->authentication[0] && strcasecmp(s->authentication, "simple"))
    return "hbase.security.authentication is not 'simple' (Kerberos/SASL): hfilegen's HBase "
           "client speaks SIMPLE authentication only (give --splits a file of split keys "
           "exported with the hbase shell instead; see README)";
  if (s->rpc_protection[0] && strcasecmp(s->rpc_protection, "authentication"))
    return "hbase.rpc.protection asks for SASL integrity/privacy, which hfilegen's HBase client "
           "does not support";
  if (s->tls_enabled)
    return "hbase.rpc.tls.enabled is true: hfilegen's HBase client does not speak TLS RPC";
  return NULL;
}
