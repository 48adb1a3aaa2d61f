package hfilegen.interop;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.ChecksumType;

/** {@code *.props} / {@code table.props}: Java-properties style key=value lines. */
public final class Props {
  /** Codec class HBase uses for zstd_framing=hbase (hbase-compression-zstd, zstd-jni). */
  public static final String HBASE_ZSTD_CODEC = "org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec";
  /** Codec class HBase uses for zstd_framing=hadoop (plain zstd frames; needs native libhadoop). */
  public static final String HADOOP_ZSTD_CODEC = "org.apache.hadoop.io.compress.ZStandardCodec";

  private final Properties p = new Properties();
  private final String where;

  public Props(Path file) throws IOException {
    this.where = file.toString();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
  }

  public String get(String key) {
    return p.getProperty(key);
  }

  public String get(String key, String dflt) {
    return p.getProperty(key, dflt);
  }

  public String require(String key) {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IllegalArgumentException(where + ": missing key '" + key + "'");
    }
    return v.trim();
  }

  public int getInt(String key, int dflt) {
    String v = p.getProperty(key);
    return v == null ? dflt : Integer.parseInt(v.trim());
  }

  /** codec=none|gz|snappy|lz4|zstd (Compression.Algorithm names, lowercase). */
  public static Compression.Algorithm codec(String name) {
    return Compression.getCompressionAlgorithmByName(name.trim().toLowerCase(Locale.ROOT));
  }

  /** encoding=NONE|PREFIX|DIFF|FAST_DIFF|ROW_INDEX_V1 (DataBlockEncoding names); absent: NONE. */
  public static org.apache.hadoop.hbase.io.encoding.DataBlockEncoding encoding(String name) {
    return name == null ? org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.NONE
      : org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.valueOf(
        name.trim().toUpperCase(Locale.ROOT));
  }

  public static BloomType bloom(String name) {
    return BloomType.valueOf(name.trim().toUpperCase(Locale.ROOT));
  }

  public static ChecksumType checksum(String name) {
    return ChecksumType.nameToType(name.trim().toUpperCase(Locale.ROOT));
  }

  /** The codec class for a zstd_framing value (hadoop|hbase). */
  public static String zstdCodecClass(String framing) {
    if (framing == null || framing.isEmpty()) {
      throw new IllegalArgumentException("codec=zstd needs zstd_framing=hadoop|hbase");
    }
    switch (framing.trim()) {
      case "hbase":
        return HBASE_ZSTD_CODEC;
      case "hadoop":
        return HADOOP_ZSTD_CODEC;
      default:
        throw new IllegalArgumentException("zstd_framing must be hadoop or hbase, not " + framing);
    }
  }

  /**
   * Points HBase's process-wide ZSTD codec at the given framing. Compression.Algorithm caches one
   * codec per algorithm for the whole JVM (region server included, in a mini cluster), so this
   * must be called before each zstd file is read or written.
   */
  public static void useZstdFraming(Configuration conf, String framing) {
    conf.set("hbase.io.compress.zstd.codec", zstdCodecClass(framing));
    Compression.Algorithm.ZSTD.reload(conf);
  }

  /**
   * Null when HBase's ZstdCodec (zstd_framing=hbase) loads with this HBase, else why not: the
   * only hbase-compression-zstd reachable for the 3.0 profile is 2.6.4's, whose codec implements
   * an hbase-common interface (ByteBuffDecompressionCodec) that 3.0.0-beta-1 does not have.
   */
  public static String hbaseZstdUnusable() {
    try {
      Class.forName(HBASE_ZSTD_CODEC).getDeclaredConstructor().newInstance();
      return null;
    } catch (LinkageError | ReflectiveOperationException e) {
      return HBASE_ZSTD_CODEC + " does not load with this HBase (" + e
        + "); no hbase-compression-zstd build for it is reachable";
    }
  }

  /** True when Hadoop's native libhadoop (with zstd) is loaded; needed for zstd_framing=hadoop. */
  public static boolean hadoopNativeZstd() {
    try {
      return org.apache.hadoop.util.NativeCodeLoader.isNativeCodeLoaded()
        && org.apache.hadoop.util.NativeCodeLoader.buildSupportsZstd();
    } catch (Throwable t) {
      return false;
    }
  }
}
