/*
 * CRC-32C (Castagnoli, as java.util.zip.CRC32C) and CRC-32 (IEEE, as
 * java.util.zip.CRC32 / zlib), the two checksums HBase blocks carry
 * (format-specs/block.md). Both return the finished value (init and final xor
 * applied), and can be continued: crc = hfg_crc32c(crc, more, n) with the
 * previous result, starting from 0.
 *
 * With ISA-L (HFG_HAVE_ISAL) the dispatching ISA-L routines are used, which
 * pick SSE4.2/PCLMUL/AVX-512 code at run time and fall back to tables on older
 * CPUs. The portable slicing-by-8 versions are always built: they are the
 * fallback without ISA-L and the oracle the tests compare against.
 */
#ifndef HFG_UTIL_CRC_H
#define HFG_UTIL_CRC_H

#include <stddef.h>
#include <stdint.h>

uint32_t hfg_crc32c(uint32_t crc, const void *p, size_t n);
uint32_t hfg_crc32(uint32_t crc, const void *p, size_t n);

uint32_t hfg_crc32c_sw(uint32_t crc, const void *p, size_t n);
uint32_t hfg_crc32_sw(uint32_t crc, const void *p, size_t n);

/* The CRC of a message whose CRC is `crc` after d[0..k) is xored into it with
 * `tail` more bytes of the message after those k bytes: the result equals
 * recomputing the CRC over the changed message, at the cost of k bytes and
 * O(log tail) carry-less multiplications instead of the whole message. Used to
 * place a block (its header's prevBlockOffset) after its checksums were made. */
uint32_t hfg_crc32c_patch(uint32_t crc, const uint8_t *d, size_t k, uint64_t tail);
uint32_t hfg_crc32_patch(uint32_t crc, const uint8_t *d, size_t k, uint64_t tail);

/* Name of the implementation in use, for inspect/bench output. */
const char *hfg_crc_impl(void);

#endif
