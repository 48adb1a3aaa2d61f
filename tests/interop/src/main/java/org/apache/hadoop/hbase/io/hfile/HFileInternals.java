package org.apache.hadoop.hbase.io.hfile;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * The few package-private HBase HFile APIs the harness needs, in one place. This class lives in
 * HBase's package only to reach them; it contains no HFile logic of its own.
 */
public final class HFileInternals {
  private HFileInternals() {
  }

  /**
   * HBase's own checksum check ({@code ChecksumUtil.validateChecksum}) over one block exactly as
   * it lies on disk: 33-byte header, on-disk payload, checksum bytes. HBase itself only logs a
   * warning and falls back to HDFS checksums on a mismatch, so callers must check this directly.
   */
  public static boolean checksumValid(byte[] onDiskBlock, String path, long offset) {
    return ChecksumUtil.validateChecksum(ByteBuff.wrap(ByteBuffer.wrap(onDiskBlock)), path, offset,
      HFileBlock.headerSize(true));
  }

  /** Number of checksum bytes HBase expects after {@code dataLen} header+payload bytes. */
  public static long checksumBytes(long dataLen, int bytesPerChecksum) {
    return ChecksumUtil.numBytes(dataLen, bytesPerChecksum);
  }

  /**
   * Recomputes a block's checksums in place with HBase's generator (used by the self-test to make
   * a corruption that only semantic checks can find).
   */
  public static void regenerateChecksums(byte[] buf, int blockStart, int onDiskDataSizeWithHeader,
    ChecksumType type, int bytesPerChecksum) throws IOException {
    ChecksumUtil.generateChecksums(buf, blockStart, blockStart + onDiskDataSizeWithHeader, buf,
      blockStart + onDiskDataSizeWithHeader, type, bytesPerChecksum);
  }

  /** Offset of the data block the scanner is positioned in. */
  public static long currentBlockOffset(HFileScanner scanner) {
    HFileBlock b = ((HFileReaderImpl.HFileScannerImpl) scanner).curBlock;
    return b == null ? -1 : b.getOffset();
  }

  /**
   * The block at offset off, read with HBase's own block reader (pread, no metrics, on heap).
   * HFile.Reader#getUncachedBlockReader's type, HFileBlock.FSReader, is public in HBase 2.x and
   * package-private in 3.0, so callers go through here.
   */
  public static HFileBlock readBlock(HFile.Reader r, long off) throws IOException {
    return r.getUncachedBlockReader().readBlockData(off, -1, true, false, true);
  }

  /** b decompressed (and decrypted) by HBase; b itself when it was not compressed. */
  public static HFileBlock unpack(HFile.Reader r, HFileBlock b) throws IOException {
    return b.unpack(r.getFileContext(), r.getUncachedBlockReader());
  }

  /** Header fields of a block HBase read, as HBase parsed them. */
  public static long prevBlockOffset(HFileBlock b) {
    return b.getPrevBlockOffset();
  }

  public static byte checksumTypeCode(HFileBlock b) {
    return b.getChecksumType();
  }

  public static int bytesPerChecksum(HFileBlock b) {
    return b.getBytesPerChecksum();
  }

  public static int onDiskDataSizeWithHeader(HFileBlock b) {
    return b.getOnDiskDataSizeWithHeader();
  }

  /**
   * The comparator name HBase's writer serializes into the trailer for this comparator class
   * (the writer maps names to HBase-1-compatible ones only when serializing; a reader's
   * FixedFileTrailer shows the name mapped back to a class, not the bytes in the file).
   */
  public static String trailerComparatorName(Class<? extends CellComparator> cls) {
    FixedFileTrailer t = new FixedFileTrailer(3, HFileReaderImpl.MAX_MINOR_VERSION);
    t.setComparatorClass(cls);
    return t.toProtobuf().getComparatorClassName();
  }
}
