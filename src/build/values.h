/*
 * Value encodings: how the text of one input field becomes the bytes of a
 * cell value, matching what a Java client would have stored with
 * org.apache.hadoop.hbase.util.Bytes (hbase-common, Bytes.java):
 *
 *   text     the field's bytes as they are (Bytes.toBytes(String) of UTF-8 input)
 *   long     Bytes.toBytes(long):   8 bytes, big-endian two's complement
 *   int      Bytes.toBytes(int):    4 bytes, big-endian two's complement
 *   short    Bytes.toBytes(short):  2 bytes, big-endian two's complement
 *   double   Bytes.toBytes(double): Double.doubleToRawLongBits, big-endian
 *   float    Bytes.toBytes(float):  Float.floatToRawIntBits, big-endian
 *   boolean  Bytes.toBytes(boolean): true -> ff, false -> 00
 *   hex      the bytes the hex digits spell ("00ff" -> 00 ff)
 *   base64   the bytes of standard (RFC 4648 section 4) padded base64
 *
 * Accepted text, strictly (no surrounding whitespace, except for double and
 * float, which trim as Java does; the caller trims if it wants to):
 *   long/int/short  optional '+' or '-', then one or more ASCII decimal digits;
 *                   values outside the type's range are errors.
 *   double/float    exactly what Java's Double.parseDouble / Float.parseFloat
 *                   accept: bytes <= ' ' (space and control characters) trimmed
 *                   at both ends as String.trim() does; optional sign; "NaN" or
 *                   "Infinity" (that case only); or a decimal (digits with an
 *                   optional '.', one digit at least, optional e/E exponent) or
 *                   hex float (0x/0X, hex digits with an optional '.', then the
 *                   required p/P binary exponent), either with an optional
 *                   f/F/d/D suffix. C's "inf", "nan", "infinity", hex without
 *                   'p' are errors. Text is rounded correctly to the type
 *                   (strtod, or strtof directly for float, so no double
 *                   rounding; '.' radix, the C locale, as hfilegen never calls
 *                   setlocale); too large gives +-Infinity and too small +-0 or
 *                   a subnormal, as in Java.
 *                   Every NaN is stored as the canonical bits 7ff8000000000000
 *                   (float 7fc00000), which is what Java's parse produces.
 *   boolean         "true"/"false" in any ASCII case, and "1"/"0". Anything else
 *                   ("yes", "t", "") is an error, unlike Java's parseBoolean,
 *                   which silently maps every other string to false.
 *   hex             an even number of hex digits, either case; "" -> no bytes.
 *   base64          length a multiple of 4, '=' padding only at the end, the
 *                   unused bits of the last symbol zero (canonical form only);
 *                   no line breaks; "" -> no bytes.
 */
#ifndef HFG_PIPELINE_VALUES_H
#define HFG_PIPELINE_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

typedef enum hfg_value_encoding {
  HFG_VALUE_TEXT = 0,
  HFG_VALUE_LONG,
  HFG_VALUE_INT,
  HFG_VALUE_SHORT,
  HFG_VALUE_DOUBLE,
  HFG_VALUE_FLOAT,
  HFG_VALUE_BOOLEAN,
  HFG_VALUE_HEX,
  HFG_VALUE_BASE64,
  HFG_VALUE_COUNT_
} hfg_value_encoding;

/* Name <-> enum: "text", "long", "int", "short", "double", "float",
 * "boolean", "hex", "base64" (parse is ASCII case-insensitive).
 * parse returns 0 or -1; name returns NULL for an unknown value. */
int hfg_value_encoding_parse(const char *name, hfg_value_encoding *out);
const char *hfg_value_encoding_name(hfg_value_encoding enc);

/* Appends the encoding of text[0..len) to out (the caller resets out when it
 * wants only this value). Returns 0; HFG_EPARSE with a message in err
 * ("'12a' is not a long", "'70000' is out of range for short (a 16-bit integer:
 * -32768 to 32767)") when the text
 * is not a valid value, out then unchanged; HFG_ENOMEM; HFG_EINVAL for an
 * unknown encoding. err (errlen bytes, may be NULL/0) is always NUL-terminated
 * when errlen > 0. The quoted text in messages is escaped and cut at 40 bytes. */
int hfg_value_encode(hfg_value_encoding enc, const char *text, size_t len, hfg_buf *out,
                     char *err, size_t errlen);

/* Decimal integer parsers with the syntax above (optional sign, digits only).
 * Return 0, HFG_EPARSE for bad syntax (including empty text), HFG_ETOOBIG when
 * the value does not fit; *out is written only on success. */
int hfg_parse_i64(const char *p, size_t n, int64_t *out);
int hfg_parse_u64(const char *p, size_t n, uint64_t *out); /* no '-' accepted */

/* 1 when p[0..n) is strict UTF-8 (RFC 3629): shortest form only, no UTF-16
 * surrogates (U+D800..U+DFFF), nothing above U+10FFFF; 0 otherwise. NUL bytes
 * are valid UTF-8. Pure-ASCII stretches are checked 8 bytes at a time. */
int hfg_utf8_valid(const char *p, size_t n);

#endif
