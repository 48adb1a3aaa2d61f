/*
 * Builders of the public result lists (hfg_keylist, hfg_findings) used by
 * the scheme tools. Append calls return 0 or HFG_ENOMEM and leave the list
 * as it was on failure.
 */
#ifndef HFG_SCHEME_LISTS_H
#define HFG_SCHEME_LISTS_H

#include "hfilegen/scheme.h"
#include "util/buf.h"

hfg_keylist *keylist_new(void);
int keylist_add(hfg_keylist *l, const void *p, size_t len);

hfg_findings *findings_new(void);
/* why and fix are copied; the message is printf-formatted. code is static. */
int findings_add(hfg_findings *f, hfg_severity sev, const char *code, const char *why,
                 const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
