/*
 * Names of the bloom, checksum and cell types (include/hfilegen/types.h).
 * format-specs/bloom.md names the sources: BloomType.java (the enum names are
 * what StoreFileWriter writes as BLOOM_FILTER_TYPE), ChecksumType.java and
 * KeyValue.Type. Names print in HBase's spelling; parsing ignores case so the
 * command line and job files may write "row" or "put". The codec names live
 * with the codecs.
 */
#include <stdlib.h>
#include <strings.h>

#include "hfilegen/types.h"

struct name_code {
  const char *name;
  int code;
};

static const struct name_code bloom_names[] = {
    {"NONE", HFG_BLOOM_NONE},
    {"ROW", HFG_BLOOM_ROW},
    {"ROWCOL", HFG_BLOOM_ROWCOL},
    {"ROWPREFIX_FIXED_LENGTH", HFG_BLOOM_ROWPREFIX},
};

static const struct name_code checksum_names[] = {
    {"NULL", HFG_CHECKSUM_NULL},
    {"CRC32", HFG_CHECKSUM_CRC32},
    {"CRC32C", HFG_CHECKSUM_CRC32C},
};

static const struct name_code cell_type_names[] = {
    {"Minimum", HFG_TYPE_MINIMUM},
    {"Put", HFG_TYPE_PUT},
    {"Delete", HFG_TYPE_DELETE},
    {"DeleteFamilyVersion", HFG_TYPE_DELETE_FAMILY_VERSION},
    {"DeleteColumn", HFG_TYPE_DELETE_COLUMN},
    {"DeleteFamily", HFG_TYPE_DELETE_FAMILY},
    {"Maximum", HFG_TYPE_MAXIMUM},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *name_of(const struct name_code *t, size_t n, int code) {
  for (size_t i = 0; i < n; i++)
    if (t[i].code == code) return t[i].name;
  return NULL;
}

static int code_of(const struct name_code *t, size_t n, const char *name, int *out) {
  if (!name) return -1;
  for (size_t i = 0; i < n; i++) {
    if (strcasecmp(t[i].name, name) == 0) {
      *out = t[i].code;
      return 0;
    }
  }
  return -1;
}

const char *hfg_bloom_type_name(hfg_bloom_type t) {
  return name_of(bloom_names, COUNT(bloom_names), (int)t);
}

int hfg_bloom_type_parse(const char *name, hfg_bloom_type *out) {
  int c;
  if (code_of(bloom_names, COUNT(bloom_names), name, &c)) return -1;
  *out = (hfg_bloom_type)c;
  return 0;
}

int hfg_bloom_spec_parse(const char *spec, hfg_bloom_type *type, uint32_t *prefix_length) {
  if (spec && !strncasecmp(spec, "rowprefix:", 10)) {
    char *end;
    unsigned long pl = strtoul(spec + 10, &end, 10);
    if (end == spec + 10 || *end || pl == 0 || pl > 32767) return -1;
    *type = HFG_BLOOM_ROWPREFIX;
    *prefix_length = (uint32_t)pl;
    return 0;
  }
  hfg_bloom_type t;
  if (hfg_bloom_type_parse(spec, &t) || t == HFG_BLOOM_ROWPREFIX) return -1;
  *type = t;
  *prefix_length = 0;
  return 0;
}

const char *hfg_checksum_type_name(hfg_checksum_type t) {
  return name_of(checksum_names, COUNT(checksum_names), (int)t);
}

int hfg_checksum_type_parse(const char *name, hfg_checksum_type *out) {
  int c;
  if (code_of(checksum_names, COUNT(checksum_names), name, &c)) return -1;
  *out = (hfg_checksum_type)c;
  return 0;
}

const char *hfg_cell_type_name(uint8_t type) {
  return name_of(cell_type_names, COUNT(cell_type_names), type);
}

int hfg_cell_type_parse(const char *name, uint8_t *out) {
  int c;
  if (code_of(cell_type_names, COUNT(cell_type_names), name, &c)) return -1;
  *out = (uint8_t)c;
  return 0;
}
