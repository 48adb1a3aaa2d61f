package hfilegen.interop;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.BloomFilterFactory;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * Writes one HFile with HBase's own StoreFileWriter, configured the way HFileOutputFormat2
 * (hbase-mapreduce) configures it: HFileContext with compression, checksum type,
 * bytesPerChecksum, block size, NONE data block encoding, includesTags=true and the default
 * includesMvcc=true; the bloom type on the writer; and the same file-info keys at close
 * (BULKLOAD_TIMESTAMP, BULKLOAD_SOURCE_TASK, MAJOR_COMPACTION_KEY=true,
 * EXCLUDE_FROM_MINOR_COMPACTION=false, then the tracked timestamps).
 */
public final class RefWriter {
  /** One file's settings; the names follow the {@code *.props} contract. */
  public static final class Spec {
    String family = "f";
    Compression.Algorithm codec = Compression.Algorithm.NONE;
    String zstdFraming; // only for ZSTD: hadoop | hbase
    BloomType bloom = BloomType.NONE;
    ChecksumType checksum = ChecksumType.CRC32C;
    int bytesPerChecksum = HFile.DEFAULT_BYTES_PER_CHECKSUM;
    int blockSize = 64 * 1024;
    int indexBlockMaxSize = 0; // 0 = HBase default (hfile.index.block.max.size)
    float bloomErrorRate = 0.01f;
    int bloomPrefixLength; // ROWPREFIX_FIXED_LENGTH: RowPrefixBloomFilter.prefix_length
    DataBlockEncoding encoding = DataBlockEncoding.NONE;
    long bulkloadTime = -1; // < 0: the wall clock
    String sourceTask = "hfilegen-interop-reference";

    Spec codec(Compression.Algorithm c) {
      codec = c;
      return this;
    }

    Spec zstd(String framing) {
      codec = Compression.Algorithm.ZSTD;
      zstdFraming = framing;
      return this;
    }

    Spec bloom(BloomType b) {
      bloom = b;
      return this;
    }

    Spec checksum(ChecksumType t, int bpc) {
      checksum = t;
      bytesPerChecksum = bpc;
      return this;
    }

    Spec blockSize(int bs) {
      blockSize = bs;
      return this;
    }

    Spec indexBlockMaxSize(int n) {
      indexBlockMaxSize = n;
      return this;
    }

    Spec errorRate(float r) {
      bloomErrorRate = r;
      return this;
    }

    Spec encoding(DataBlockEncoding e) {
      encoding = e;
      return this;
    }

    Spec family(String f) {
      family = f;
      return this;
    }
  }

  private RefWriter() {
  }

  /** Sorts cells into HBase order (CellComparatorImpl) and drops exact duplicate keys. */
  public static List<TsvCell> sorted(List<TsvCell> cells) {
    List<KeyValue> kvs = new ArrayList<>();
    for (TsvCell c : cells) {
      kvs.add(c.toKeyValue());
    }
    kvs.sort(CellComparatorImpl.COMPARATOR);
    List<TsvCell> out = new ArrayList<>();
    KeyValue prev = null;
    for (KeyValue kv : kvs) {
      if (prev == null || CellComparatorImpl.COMPARATOR.compare(prev, kv) != 0) {
        out.add(TsvCell.of(kv));
      }
      prev = kv;
    }
    return out;
  }

  /** Writes {@code hfile} from already-sorted cells; returns the number of index levels. */
  public static int writeHFile(Configuration baseConf, Path hfile, Spec s, List<TsvCell> cells)
    throws IOException {
    Configuration conf = new Configuration(baseConf);
    conf.setFloat(BloomFilterFactory.IO_STOREFILE_BLOOM_ERROR_RATE, s.bloomErrorRate);
    if (s.bloomPrefixLength > 0) {
      conf.setInt("RowPrefixBloomFilter.prefix_length", s.bloomPrefixLength);
    }
    if (s.indexBlockMaxSize > 0) {
      conf.setInt("hfile.index.block.max.size", s.indexBlockMaxSize);
    }
    if (s.codec == Compression.Algorithm.ZSTD) {
      Props.useZstdFraming(conf, s.zstdFraming);
    }
    FileSystem fs = FileSystem.getLocal(conf).getRawFileSystem();
    HFileContext ctx = new HFileContextBuilder().withCompression(s.codec)
      .withDataBlockEncoding(s.encoding).withChecksumType(s.checksum)
      .withBytesPerCheckSum(s.bytesPerChecksum).withBlockSize(s.blockSize)
      .withColumnFamily(Bytes.toBytes(s.family)).withTableName(Bytes.toBytes("hfilegen_ref"))
      .withIncludesTags(true).build();
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(hfile.toAbsolutePath().toUri());
    StoreFileWriter w = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs).withFilePath(p)
      .withBloomType(s.bloom).withFileContext(ctx).build();
    try {
      for (TsvCell c : cells) {
        w.append(c.toKeyValue());
      }
      w.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(s.bulkloadTime >= 0 ? s.bulkloadTime : System.currentTimeMillis()));
      w.appendFileInfo(HStoreFile.BULKLOAD_TASK_KEY, Bytes.toBytes(s.sourceTask));
      w.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(true));
      w.appendFileInfo(HStoreFile.EXCLUDE_FROM_MINOR_COMPACTION_KEY, Bytes.toBytes(false));
      w.appendTrackedTimestampsToMetadata();
    } finally {
      w.close();
    }
    try (HFile.Reader r = HFile.createReader(fs, p, CacheConfig.DISABLED, true, conf)) {
      return r.getTrailer().getNumDataIndexLevels();
    }
  }

  /** Writes X.hfile, X.cells.tsv and X.props into dir. Returns the file size. */
  public static long writeSet(Configuration conf, Path dir, String name, Spec s,
    List<TsvCell> cells) throws IOException {
    Path hfile = dir.resolve(name + ".hfile");
    int levels = writeHFile(conf, hfile, s, cells);
    TsvCell.writeAll(dir.resolve(name + ".cells.tsv"), cells);
    try (Writer w = Files.newBufferedWriter(dir.resolve(name + ".props"),
      StandardCharsets.UTF_8)) {
      w.write("codec=" + s.codec.getName() + "\n");
      if (s.zstdFraming != null) {
        w.write("zstd_framing=" + s.zstdFraming + "\n");
      }
      w.write("bloom=" + s.bloom + "\n");
      w.write("checksum=" + s.checksum.getName() + "\n");
      w.write("bytes_per_checksum=" + s.bytesPerChecksum + "\n");
      w.write("block_size=" + s.blockSize + "\n");
      w.write("index_levels=" + levels + "\n");
      w.write("bloom_error_rate=" + s.bloomErrorRate + "\n");
      if (s.bloomPrefixLength > 0) {
        w.write("bloom_param=" + s.bloomPrefixLength + "\n");
      }
      w.write("family=" + s.family + "\n");
      if (s.encoding != DataBlockEncoding.NONE) {
        w.write("encoding=" + s.encoding + "\n");
      }
      if (s.indexBlockMaxSize > 0) {
        // informational (not part of the contract): the writer's hfile.index.block.max.size
        w.write("index_block_max_size=" + s.indexBlockMaxSize + "\n");
      }
    }
    return Files.size(hfile);
  }
}
