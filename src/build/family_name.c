/*
 * Which column family names a bulk load can carry (hfg_family_name_check in
 * include/hfilegen/build.h).
 *
 * HBase's rule is ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName: not
 * empty, no leading '.', no ISO control character (Java's Character.isISOControl
 * on a signed byte: 0x00-0x1f and 0x7f; bytes 0x80-0xff are negative there and
 * pass), no ':', '\\' or '/', and not "recovered.edits". A family is also a
 * directory of the bulk-load output, and LoadIncrementalHFiles /
 * BulkLoadHFilesTool skip directories whose name starts with '_' (as they do
 * _SUCCESS and _logs), so such a family's files would silently not load: we
 * refuse that too.
 */
#include <string.h>

#include "hfilegen/build.h"

int hfg_family_name_check(const char *name, size_t len, const char **why) {
  const char *w = NULL;
  if (len == 0) w = "a column family name cannot be empty";
  else if (name[0] == '.') w = "HBase refuses column family names starting with '.'";
  else if (name[0] == '_')
    w = "completebulkload skips directories starting with '_', so this family would not load";
  else if (len == 15 && !memcmp(name, "recovered.edits", 15))
    w = "HBase reserves the name recovered.edits";
  else
    for (size_t i = 0; i < len && !w; i++) {
      unsigned char c = (unsigned char)name[i];
      if (c < 0x20 || c == 0x7f) w = "HBase refuses control characters in column family names";
      else if (c == ':') w = "HBase refuses ':' in column family names (it separates family and qualifier)";
      else if (c == '/' || c == '\\') w = "HBase refuses '/' and '\\' in column family names";
    }
  if (why) *why = w;
  return w ? -1 : 0;
}
