package hfilegen.interop;

import java.io.ByteArrayInputStream;
import java.io.DataInput;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.MetaCellComparator;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileInfo;
import org.apache.hadoop.hbase.io.hfile.HFileInternals;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HFileProtos;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.TimeRangeTracker;
import org.apache.hadoop.hbase.util.BloomFilter;
import org.apache.hadoop.hbase.util.BloomFilterFactory;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;

import static hfilegen.interop.CheckUtil.eq;
import static hfilegen.interop.CheckUtil.fileInfo;
import static hfilegen.interop.CheckUtil.firstOnRow;
import static hfilegen.interop.CheckUtil.keyBetween;
import static hfilegen.interop.CheckUtil.keyEq;
import static hfilegen.interop.CheckUtil.rowColKey;
import static hfilegen.interop.CheckUtil.rowOf;

/**
 * {@code ReadCheck DIR...}: every {@code X.hfile} in the directories (with {@code X.cells.tsv}
 * and {@code X.props} beside it) must be read by HBase exactly as described. One line per file
 * ({@code PASS}, {@code FAIL} or {@code SKIP}), then {@code N passed, M failed}; exit 1 on any
 * failure.
 */
public final class ReadCheck {
  /** Upper bound on seek probes per kind, so very large files stay fast. */
  private static final int MAX_SEEKS = 5000;
  private static final int BLOOM_PROBES = 20000;

  /** Thrown to skip a file that this JVM cannot read (e.g. zstd hadoop framing, no libhadoop). */
  static final class Skip extends Exception {
    private static final long serialVersionUID = 1L;

    Skip(String why) {
      super(why);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: ReadCheck DIR...");
      System.exit(2);
    }
    Configuration conf = HBaseConfiguration.create();
    int passed = 0;
    int failed = 0;
    for (String dir : args) {
      List<Path> files = hfilesIn(Paths.get(dir));
      if (files.isEmpty()) {
        System.out.println("FAIL " + dir + ": no *.hfile files (directory) : nothing to check");
        failed++;
      }
      for (Path f : files) {
        long t0 = System.nanoTime();
        try {
          String summary = check(conf, f);
          System.out.println("PASS " + f + " (" + summary + String.format(", %.1fs)",
            (System.nanoTime() - t0) / 1e9));
          passed++;
        } catch (Skip s) {
          System.out.println("SKIP " + f + ": " + s.getMessage());
        } catch (Fail e) {
          System.out.println("FAIL " + f + ": " + e.getMessage());
          failed++;
        } catch (Throwable t) {
          System.out.println("FAIL " + f + ": unexpected error : " + Fail.describe(t));
          failed++;
        }
        System.out.flush();
      }
    }
    System.out.println(passed + " passed, " + failed + " failed");
    System.exit(failed > 0 ? 1 : 0);
  }

  static List<Path> hfilesIn(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".hfile")).sorted()
        .collect(Collectors.toList());
    }
  }

  /** Path of a sibling file: X.hfile -> X + suffix. */
  static Path sibling(Path hfile, String suffix) {
    String n = hfile.getFileName().toString();
    return hfile.resolveSibling(n.substring(0, n.length() - ".hfile".length()) + suffix);
  }

  /** Runs every check on one file; returns a short summary, or throws Fail / Skip. */
  public static String check(Configuration baseConf, Path file) throws Exception {
    return new ReadCheck(baseConf, file).run();
  }

  // ---------------------------------------------------------------------------------------------

  private final Configuration conf;
  private final Path file;
  private Props props;
  private List<TsvCell> expected;
  private List<KeyValue> kvs;
  private Compression.Algorithm codec;
  private BloomType bloom;
  private ChecksumType checksum;
  private int bytesPerChecksum;
  private float errorRate;
  private org.apache.hadoop.hbase.io.encoding.DataBlockEncoding encoding;
  private int prefixLen; // ROWPREFIX_FIXED_LENGTH: bloom_param, the row prefix length

  /** ROW and ROWPREFIX_FIXED_LENGTH blooms hold rows (the latter their first prefixLen bytes). */
  private boolean rowLike() {
    return bloom == BloomType.ROW || bloom == BloomType.ROWPREFIX_FIXED_LENGTH;
  }

  private byte[] bloomRow(byte[] row) {
    return bloom == BloomType.ROWPREFIX_FIXED_LENGTH && row.length > prefixLen
      ? Arrays.copyOf(row, prefixLen) : row;
  }
  private HFile.Reader reader;
  private final List<Long> dataBlocks = new ArrayList<>();
  private long[] cellBlock; // data block offset of each cell, from the sequential scan
  private int[] firstOfKey; // index of the first cell with the same key (duplicates)
  private String fpNote = "";
  private int rowIndexSeekBefore; // seekBefore answers at an earlier cell of the row (ROW_INDEX_V1)

  private ReadCheck(Configuration baseConf, Path file) {
    this.conf = new Configuration(baseConf);
    this.file = file;
  }

  private String run() throws Exception {
    loadExpectations();
    FileSystem fs = FileSystem.getLocal(conf).getRawFileSystem();
    org.apache.hadoop.fs.Path hp = new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri());
    // A private block cache per file keeps the many seeks fast; it never serves the checksum
    // walk, which reads every block uncached.
    LruBlockCache cache = new LruBlockCache(256L << 20, 64 * 1024, true, conf);
    try {
      reader = HFile.createReader(fs, hp, new CacheConfig(conf, cache), true, conf);
    } catch (Exception e) {
      cache.shutdown();
      throw new Fail("HFile.createReader failed", null, e);
    }
    try {
      walkBlocks();
      checkTrailerAndFileInfo();
      checkCells();
      checkSeeks();
      checkBlooms();
    } finally {
      reader.close(true);
      cache.shutdown();
    }
    FixedFileTrailer t = reader.getTrailer();
    return "cells=" + expected.size() + " dataBlocks=" + dataBlocks.size() + " indexLevels="
      + t.getNumDataIndexLevels() + " codec=" + codec.getName() + " bloom=" + bloom + " checksum="
      + checksum + fpNote + (rowIndexSeekBefore > 0 ? " rowIndexSeekBeforeEarlierInRow="
      + rowIndexSeekBefore : "");
  }

  private void loadExpectations() throws Exception {
    try {
      props = new Props(sibling(file, ".props"));
      expected = TsvCell.readAll(sibling(file, ".cells.tsv"));
      codec = Props.codec(props.require("codec"));
      bloom = Props.bloom(props.require("bloom"));
      checksum = Props.checksum(props.require("checksum"));
      bytesPerChecksum = Integer.parseInt(props.require("bytes_per_checksum"));
      errorRate = Float.parseFloat(props.get("bloom_error_rate", "0.01"));
      encoding = Props.encoding(props.get("encoding"));
      prefixLen = Integer.parseInt(props.get("bloom_param", "0").trim());
    } catch (Exception e) {
      throw new Fail("bad test input", null, e);
    }
    if (codec == Compression.Algorithm.ZSTD) {
      String framing = props.get("zstd_framing");
      if ("hadoop".equals(framing) && !Props.hadoopNativeZstd()) {
        throw new Skip("zstd_framing=hadoop needs Hadoop's native libhadoop with zstd, which this "
          + "JVM does not have; HBase cannot read such a file here");
      }
      String noZstd = "hbase".equals(framing) ? Props.hbaseZstdUnusable() : null;
      if (noZstd != null) {
        throw new Skip("zstd_framing=hbase: " + noZstd + "; HBase cannot read such a file here");
      }
      Props.useZstdFraming(conf, framing);
    }
    byte[] family = Bytes.toBytes(props.require("family"));
    kvs = new ArrayList<>(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      TsvCell c = expected.get(i);
      if (!Arrays.equals(c.family, family)) {
        throw new Fail("bad test input", Fail.cell(i), "TSV family differs from props family");
      }
      kvs.add(c.toKeyValue());
    }
  }

  // --- 1. every block, with HBase's block reader and HBase's checksum code ---------------------

  private void walkBlocks() throws Exception {
    FixedFileTrailer tr = reader.getTrailer();
    long fileLen = Files.size(file);
    long end = fileLen - tr.getTrailerSize();
    long loadOnOpen = tr.getLoadOnOpenDataOffset();
    List<BlockType> loadOnOpenTypes = new ArrayList<>();
    long prevData = -1;
    long off = 0;
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      while (off < end) {
        String where = Fail.block(off);
        if (off == loadOnOpen) {
          loadOnOpenTypes.clear();
        } else if (off > loadOnOpen && loadOnOpenTypes.isEmpty()) {
          throw new Fail("block layout", where, "a block straddles load_on_open_data_offset "
            + loadOnOpen);
        }
        HFileBlock b;
        try {
          b = HFileInternals.readBlock(reader, off);
        } catch (Exception e) {
          throw new Fail("HBase block reader failed", where, e);
        }
        try {
          int size = b.getOnDiskSizeWithHeader();
          if (off + size > end) {
            throw new Fail("block layout", where, "block of " + size + " bytes runs into the "
              + "trailer at " + end);
          }
          byte[] raw = new byte[size];
          raf.seek(off);
          raf.readFully(raw);
          checkBlockChecksum(raw, off, b);
          HFileBlock u;
          try {
            u = HFileInternals.unpack(reader, b);
          } catch (Exception e) {
            throw new Fail("HBase could not decompress " + b.getBlockType() + " block", where, e);
          }
          if (u != b) {
            u.release();
          }
          BlockType t = b.getBlockType();
          if (off >= loadOnOpen) {
            loadOnOpenTypes.add(t);
          } else if (t == BlockType.ROOT_INDEX || t == BlockType.FILE_INFO
            || t == BlockType.GENERAL_BLOOM_META || t == BlockType.DELETE_FAMILY_BLOOM_META) {
            throw new Fail("block layout", where, t + " block before load_on_open_data_offset");
          }
          boolean encoded = encoding != org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.NONE;
          if (t == BlockType.DATA && encoded) {
            throw new Fail("block type", where, "DATA block, but every data block should be "
              + "ENCODED_DATA in " + encoding);
          }
          if (t == BlockType.DATA || (t == BlockType.ENCODED_DATA && encoded)) {
            if (HFileInternals.prevBlockOffset(b) != prevData) {
              throw new Fail("prevBlockOffset chain", where, "DATA block has prevBlockOffset "
                + HFileInternals.prevBlockOffset(b) + ", previous DATA block is at " + prevData);
            }
            dataBlocks.add(off);
            prevData = off;
          } else if (t == BlockType.ENCODED_DATA) {
            throw new Fail("block type", where, "ENCODED_DATA block, but no data block encoding "
              + "is expected");
          }
          off += size;
        } finally {
          b.release();
        }
      }
    }
    if (off != end) {
      throw new Fail("block layout", Fail.block(off), "blocks end at " + off
        + " but the trailer starts at " + end);
    }
    List<BlockType> want = new ArrayList<>(List.of(BlockType.ROOT_INDEX, BlockType.ROOT_INDEX,
      BlockType.FILE_INFO));
    if (loadOnOpenTypes.size() < 3 || !loadOnOpenTypes.subList(0, 3).equals(want)) {
      throw new Fail("load-on-open section", Fail.block(loadOnOpen), "block types "
        + loadOnOpenTypes + ", want ROOT_INDEX, ROOT_INDEX, FILE_INFO, then bloom metas");
    }
    if (!expected.isEmpty()) {
      if (dataBlocks.isEmpty()) {
        throw new Fail("block layout", null, "no DATA blocks");
      }
      if (tr.getFirstDataBlockOffset() != dataBlocks.get(0)) {
        throw new Fail("trailer first_data_block_offset", null, "is "
          + tr.getFirstDataBlockOffset() + ", first DATA block is at " + dataBlocks.get(0));
      }
      long last = dataBlocks.get(dataBlocks.size() - 1);
      if (tr.getLastDataBlockOffset() != last) {
        throw new Fail("trailer last_data_block_offset", null, "is "
          + tr.getLastDataBlockOffset() + ", last DATA block is at " + last);
      }
    }
  }

  private void checkBlockChecksum(byte[] raw, long off, HFileBlock b) throws Fail {
    String where = Fail.block(off);
    ByteBuffer h = ByteBuffer.wrap(raw);
    byte type = h.get(24);
    int bpc = h.getInt(25);
    int dataWithHeader = h.getInt(29);
    if (type != checksum.getCode()) {
      throw new Fail("checksum type", where, "header has " + ChecksumType.codeToType(type)
        + ", props say " + checksum);
    }
    if (bpc != bytesPerChecksum) {
      throw new Fail("bytesPerChecksum", where, "header has " + bpc + ", props say "
        + bytesPerChecksum);
    }
    if (HFileInternals.checksumTypeCode(b) != type || HFileInternals.bytesPerChecksum(b) != bpc
      || HFileInternals.onDiskDataSizeWithHeader(b) != dataWithHeader) {
      throw new Fail("block header", where, "HBase parsed different header fields");
    }
    long need = HFileInternals.checksumBytes(dataWithHeader, bpc);
    if (raw.length - dataWithHeader != need) {
      throw new Fail("checksum length", where, "block has " + (raw.length - dataWithHeader)
        + " checksum bytes after onDiskDataSizeWithHeader=" + dataWithHeader + ", HBase expects "
        + need);
    }
    if (!HFileInternals.checksumValid(raw, file.toString(), off)) {
      throw new Fail("checksum mismatch", where, "ChecksumUtil.validateChecksum rejected this "
        + b.getBlockType() + " block (" + checksum + ", bytesPerChecksum=" + bpc + ")");
    }
  }

  // --- 2. trailer and file info -----------------------------------------------------------------

  private void checkTrailerAndFileInfo() throws Exception {
    FixedFileTrailer t = reader.getTrailer();
    HFileInfo info = reader.getHFileInfo();
    int n = expected.size();
    eq("trailer major version", t.getMajorVersion(), 3);
    eq("trailer entry_count", t.getEntryCount(), n);
    eq("trailer compression_codec", t.getCompressionCodec(), codec);
    String levels = props.get("index_levels");
    if (levels != null) {
      eq("trailer num_data_index_levels", t.getNumDataIndexLevels(),
        Integer.parseInt(levels.trim()));
    }
    eq("trailer comparator_class_name", rawTrailer().getComparatorClassName(),
      HFileInternals.trailerComparatorName(CellComparatorImpl.class));
    if (reader.getComparator() instanceof MetaCellComparator) {
      throw new Fail("trailer comparator_class_name", null, "HBase resolved it to the hbase:meta "
        + "comparator");
    }
    if (n == 0) {
      return;
    }
    Optional<Cell> first = reader.getFirstKey();
    if (!first.isPresent()) {
      throw new Fail("first key", null, "reader has no first key");
    }
    keyEq("first key (root index entry 0)", PrivateCellUtil.getCellKeySerializedAsKeyValueKey(
      first.get()), kvs.get(0).getKey());
    keyEq("file info hfile.LASTKEY", fileInfo(info, "hfile.LASTKEY"), kvs.get(n - 1).getKey());

    long keyLen = 0;
    long valueLen = 0;
    int maxTags = 0;
    long deleteFamilies = 0;
    long earliestPut = Long.MAX_VALUE;
    TimeRangeTracker trt = TimeRangeTracker.create(TimeRangeTracker.Type.NON_SYNC);
    for (KeyValue kv : kvs) {
      keyLen += kv.getKeyLength();
      valueLen += kv.getValueLength();
      maxTags = Math.max(maxTags, kv.getTagsLength());
      if (PrivateCellUtil.isDeleteFamily(kv) || PrivateCellUtil.isDeleteFamilyVersion(kv)) {
        deleteFamilies++;
      }
      if (kv.getTypeByte() == KeyValue.Type.Put.getCode()) {
        earliestPut = Math.min(earliestPut, kv.getTimestamp());
      }
      trt.includeTimestamp(kv);
    }
    eq("file info hfile.AVG_KEY_LEN", Bytes.toInt(fileInfo(info, "hfile.AVG_KEY_LEN")),
      (int) (keyLen / n));
    eq("file info hfile.AVG_VALUE_LEN", Bytes.toInt(fileInfo(info, "hfile.AVG_VALUE_LEN")),
      (int) (valueLen / n));
    eq("file info hfile.MAX_TAGS_LEN", Bytes.toInt(fileInfo(info, "hfile.MAX_TAGS_LEN")),
      maxTags);
    TimeRangeTracker got = TimeRangeTracker.parseFrom(fileInfo(info, "TIMERANGE"));
    eq("file info TIMERANGE min", got.getMin(), trt.getMin());
    eq("file info TIMERANGE max", got.getMax(), trt.getMax());
    eq("file info DELETE_FAMILY_COUNT",
      Bytes.toLong(fileInfo(info, Bytes.toString(HStoreFile.DELETE_FAMILY_COUNT))),
      deleteFamilies);
    byte[] ept = info.get(HStoreFile.EARLIEST_PUT_TS);
    if (ept != null) {
      eq("file info EARLIEST_PUT_TS", Bytes.toLong(ept), earliestPut);
    }
    byte[] dbe = info.get(Bytes.toBytes("DATA_BLOCK_ENCODING"));
    if (encoding == org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.NONE) {
      if (dbe != null) {
        throw new Fail("file info DATA_BLOCK_ENCODING", null, "is " + Bytes.toString(dbe)
          + " but props say no encoding");
      }
    } else {
      eq("file info DATA_BLOCK_ENCODING", dbe == null ? "(missing)" : Bytes.toString(dbe),
        encoding.toString());
    }
    byte[] bt = info.get(HStoreFile.BLOOM_FILTER_TYPE_KEY);
    byte[] lastBloomKey = info.get(HStoreFile.LAST_BLOOM_KEY);
    if (bloom == BloomType.NONE) {
      if (bt != null) {
        throw new Fail("file info BLOOM_FILTER_TYPE", null, "is " + Bytes.toString(bt)
          + " but props say bloom=NONE");
      }
    } else {
      if (bt == null) {
        throw new Fail("file info BLOOM_FILTER_TYPE", null, "missing, props say " + bloom);
      }
      eq("file info BLOOM_FILTER_TYPE", Bytes.toString(bt), bloom.toString());
      KeyValue last = kvs.get(n - 1);
      if (bloom == BloomType.ROWPREFIX_FIXED_LENGTH) {
        byte[] bp = info.get(Bytes.toBytes("BLOOM_FILTER_PARAM"));
        eq("file info BLOOM_FILTER_PARAM", bp == null || bp.length != 4 ? -1 : Bytes.toInt(bp),
          prefixLen);
      }
      byte[] want = rowLike() ? bloomRow(rowOf(last))
        : PrivateCellUtil.getCellKeySerializedAsKeyValueKey(PrivateCellUtil
          .createFirstOnRowCol(last));
      // Optional for HBase (it then skips a shortcut), but when present a Get for any key after
      // it is answered "absent" without consulting the bloom: it must be exact.
      if (lastBloomKey != null) {
        keyEq("file info LAST_BLOOM_KEY", lastBloomKey, want);
      }
    }
  }

  /** The trailer's protobuf exactly as stored (8-byte magic, then a delimited message). */
  private HFileProtos.FileTrailerProto rawTrailer() throws IOException {
    int size = reader.getTrailer().getTrailerSize();
    byte[] buf = new byte[size];
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      raf.seek(raf.length() - size);
      raf.readFully(buf);
    }
    return HFileProtos.FileTrailerProto.parseDelimitedFrom(
      new ByteArrayInputStream(buf, 8, size - 8));
  }

  // --- 3. every cell, in order ------------------------------------------------------------------

  private void checkCells() throws Exception {
    int n = expected.size();
    cellBlock = new long[n];
    firstOfKey = new int[n];
    CellComparator cmp = CellComparatorImpl.COMPARATOR;
    HFileScanner s = reader.getScanner(conf, true, true, false);
    try {
      boolean more;
      try {
        more = s.seekTo();
      } catch (Exception e) {
        throw new Fail("scan", Fail.cell(0), e);
      }
      int i = 0;
      while (more) {
        if (i >= n) {
          throw new Fail("cell count", Fail.cell(i), "file has more cells than the "
            + n + " in the TSV");
        }
        TsvCell got = TsvCell.of(s.getCell());
        String d = expected.get(i).diff(got);
        if (d != null) {
          throw new Fail("cell " + d + " differs", Fail.cell(i), "expected " + expected.get(i)
            + " but HBase read " + got);
        }
        cellBlock[i] = HFileInternals.currentBlockOffset(s);
        firstOfKey[i] = i > 0 && cmp.compare(kvs.get(i - 1), kvs.get(i)) == 0 ? firstOfKey[i - 1]
          : i;
        if (i > 0 && cmp.compare(kvs.get(i - 1), kvs.get(i)) > 0) {
          throw new Fail("cell order", Fail.cell(i), "cell sorts before the previous one");
        }
        i++;
        try {
          more = s.next();
        } catch (Exception e) {
          throw new Fail("scan", Fail.cell(i), e);
        }
      }
      if (i != n) {
        throw new Fail("cell count", Fail.cell(i), "file has " + i + " cells, TSV has " + n);
      }
    } finally {
      s.close();
    }
    Set<Long> seen = new HashSet<>();
    for (long b : cellBlock) {
      seen.add(b);
    }
    if (n > 0 && seen.size() != dataBlocks.size()) {
      throw new Fail("data blocks", null, "the scan visited " + seen.size()
        + " data blocks, the file has " + dataBlocks.size());
    }
  }

  // --- 4. seekTo / seekBefore -------------------------------------------------------------------

  private void checkSeeks() throws Exception {
    int n = expected.size();
    if (n == 0) {
      return;
    }
    CellComparator cmp = CellComparatorImpl.COMPARATOR;
    List<Integer> blockStarts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (i == 0 || cellBlock[i] != cellBlock[i - 1]) {
        blockStarts.add(i);
      }
    }
    HFileScanner s = reader.getScanner(conf, true, true, false);
    try {
      // first key of every data block (exact), and seekBefore it
      for (int bi : sample(blockStarts)) {
        seekExact(s, bi, "seekTo first key of data block");
        seekBefore(s, bi, "seekBefore first key of data block");
      }
      // every tenth cell (thinned evenly for very large files)
      int stride = Math.max(10, n / MAX_SEEKS);
      for (int i = 0; i < n; i += stride) {
        seekExact(s, i, "seekTo every tenth cell");
        seekBefore(s, i, "seekBefore every tenth cell");
      }
      // absent keys between blocks: just after a block's last key
      for (int k = 1; k < blockStarts.size(); k++) {
        int next = blockStarts.get(k);
        if (blockStarts.size() > MAX_SEEKS && k % (blockStarts.size() / MAX_SEEKS + 1) != 0) {
          continue;
        }
        KeyValue last = kvs.get(next - 1);
        KeyValue probe = keyBetween(cmp, last, kvs.get(next));
        if (probe == null) {
          continue;
        }
        int r;
        try {
          r = s.seekTo(probe);
        } catch (Exception e) {
          throw new Fail("seekTo key between blocks", Fail.cell(next), e);
        }
        if (r != 1 || cmp.compare(s.getCell(), last) != 0) {
          throw new Fail("seekTo key between blocks", Fail.cell(next), "seekTo returned " + r
            + " at " + s.getCell() + ", expected 1 at the previous block's last cell " + last);
        }
        if (!s.next() || cmp.compare(s.getCell(), kvs.get(next)) != 0) {
          throw new Fail("seekTo key between blocks", Fail.cell(next), "next() after the seek "
            + "did not land on the next block's first cell");
        }
      }
      // before the first key, and after the last key
      KeyValue firstKv = kvs.get(0);
      if (firstKv.getRowLength() > 0) {
        KeyValue before = firstOnRow(new byte[0]);
        int r = s.seekTo(before);
        if (r != -1) {
          throw new Fail("seekTo before first key", Fail.cell(0), "returned " + r
            + ", expected -1");
        }
      }
      KeyValue lastKv = kvs.get(n - 1);
      byte[] after = Arrays.copyOf(rowOf(lastKv), lastKv.getRowLength() + 1);
      int r = s.seekTo(firstOnRow(after));
      if (r != 1 || cmp.compare(s.getCell(), lastKv) != 0 || s.next()) {
        throw new Fail("seekTo after last key", Fail.cell(n - 1), "returned " + r
          + ", expected 1 at the last cell and no next()");
      }
    } finally {
      s.close();
    }
  }

  private void seekExact(HFileScanner s, int i, String what) throws Fail {
    int want = firstOfKey[i];
    try {
      int r = s.seekTo(kvs.get(i));
      if (r != 0) {
        throw new Fail(what, Fail.cell(i), "seekTo returned " + r + ", expected 0 (exact)");
      }
      String d = expected.get(want).diff(TsvCell.of(s.getCell()));
      if (d != null) {
        throw new Fail(what, Fail.cell(i), "landed on " + TsvCell.of(s.getCell())
          + ", expected " + expected.get(want));
      }
    } catch (Fail f) {
      throw f;
    } catch (Exception e) {
      throw new Fail(what, Fail.cell(i), e);
    }
  }

  private void seekBefore(HFileScanner s, int i, String what) throws Fail {
    int want = firstOfKey[i] - 1;
    try {
      boolean r = s.seekBefore(kvs.get(i));
      if (want < 0) {
        if (r) {
          throw new Fail(what, Fail.cell(i), "seekBefore the first key returned true");
        }
        return;
      }
      if (!r) {
        throw new Fail(what, Fail.cell(i), "seekBefore returned false, expected cell #" + want);
      }
      String d = expected.get(want).diff(TsvCell.of(s.getCell()));
      if (d != null && encoding == org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.ROW_INDEX_V1) {
        // HBase's RowIndexSeekerV1 answers seekBefore of a key inside a row with an earlier
        // cell of that row (its row index has one entry per row); HBase's own files do the same
        TsvCell got = TsvCell.of(s.getCell());
        for (int j = want - 1; j >= 0 && Arrays.equals(expected.get(j).row, expected.get(want).row);
          j--) {
          if (expected.get(j).diff(got) == null) {
            rowIndexSeekBefore++;
            return;
          }
        }
      }
      if (d != null) {
        throw new Fail(what, Fail.cell(i), "landed on " + TsvCell.of(s.getCell())
          + ", expected cell #" + want + " " + expected.get(want));
      }
    } catch (Fail f) {
      throw f;
    } catch (Exception e) {
      throw new Fail(what, Fail.cell(i), e);
    }
  }

  private static List<Integer> sample(List<Integer> xs) {
    if (xs.size() <= MAX_SEEKS) {
      return xs;
    }
    List<Integer> out = new ArrayList<>();
    int step = xs.size() / MAX_SEEKS + 1;
    for (int i = 0; i < xs.size(); i += step) {
      out.add(xs.get(i));
    }
    return out;
  }

  // --- 5. bloom filters -------------------------------------------------------------------------

  private void checkBlooms() throws Exception {
    DataInput meta = reader.getGeneralBloomFilterMetadata();
    if (bloom == BloomType.NONE || expected.isEmpty()) {
      if (meta != null && bloom == BloomType.NONE) {
        throw new Fail("general bloom", null, "file has a GENERAL_BLOOM_META block but props say "
          + "bloom=NONE");
      }
    } else {
      if (meta == null) {
        throw new Fail("general bloom", null, "no GENERAL_BLOOM_META block, props say " + bloom);
      }
      BloomFilter bf;
      try {
        bf = BloomFilterFactory.createFromMeta(meta, reader);
      } catch (Exception e) {
        throw new Fail("general bloom meta", null, e);
      }
      checkGeneralBloom(bf);
    }
    DataInput dmeta = reader.getDeleteBloomFilterMetadata();
    if (dmeta != null) {
      BloomFilter df;
      try {
        df = BloomFilterFactory.createFromMeta(dmeta, reader);
      } catch (Exception e) {
        throw new Fail("delete family bloom meta", null, e);
      }
      for (int i = 0; i < kvs.size(); i++) {
        KeyValue kv = kvs.get(i);
        if (PrivateCellUtil.isDeleteFamily(kv) || PrivateCellUtil.isDeleteFamilyVersion(kv)) {
          byte[] row = rowOf(kv);
          if (!df.contains(row, 0, row.length, null)) {
            throw new Fail("delete family bloom denies a DeleteFamily row", Fail.cell(i),
              "row " + Esc.encode(row));
          }
        }
      }
    }
  }

  private void checkGeneralBloom(BloomFilter bf) throws Fail {
    Set<ByteBuffer> rows = new HashSet<>();
    Set<ByteBuffer> rowCols = new HashSet<>();
    for (int i = 0; i < kvs.size(); i++) {
      KeyValue kv = kvs.get(i);
      byte[] row = bloomRow(rowOf(kv));
      rows.add(ByteBuffer.wrap(row));
      boolean ok;
      if (rowLike()) {
        ok = bf.contains(row, 0, row.length, null);
      } else {
        rowCols.add(ByteBuffer.wrap(rowColKey(kv)));
        ok = bf.contains(PrivateCellUtil.createFirstOnRowCol(kv), null, BloomType.ROWCOL);
      }
      if (!ok) {
        throw new Fail(bloom + " bloom denies a key that is in the file", Fail.cell(i),
          "cell " + expected.get(i));
      }
    }
    // false positives on absent keys
    Random rnd = new Random(42);
    int probes = 0;
    int positives = 0;
    while (probes < BLOOM_PROBES) {
      byte[] row = new byte[8 + rnd.nextInt(12)];
      rnd.nextBytes(row);
      boolean hit;
      if (rowLike()) {
        row = bloomRow(row);
        if (rows.contains(ByteBuffer.wrap(row))) {
          continue;
        }
        hit = bf.contains(row, 0, row.length, null);
      } else {
        KeyValue src = kvs.get(rnd.nextInt(kvs.size()));
        KeyValue probe = new KeyValue(row, 0, row.length, src.getFamilyArray(),
          src.getFamilyOffset(), src.getFamilyLength(), src.getQualifierArray(),
          src.getQualifierOffset(), src.getQualifierLength(), Long.MAX_VALUE,
          KeyValue.Type.Maximum, new byte[0], 0, 0);
        if (rowCols.contains(ByteBuffer.wrap(rowColKey(probe)))) {
          continue;
        }
        hit = bf.contains(PrivateCellUtil.createFirstOnRowCol(probe), null, BloomType.ROWCOL);
      }
      probes++;
      if (hit) {
        positives++;
      }
    }
    double fp = positives / (double) probes;
    fpNote = String.format(" bloomFP=%.4f", fp);
    if (fp >= 3 * errorRate) {
      throw new Fail(bloom + " bloom false-positive rate", null, String.format(
        "%d of %d absent keys answered maybe (%.4f), configured rate %.4f", positives, probes, fp,
        errorRate));
    }
  }
}
