package hfilegen.bench;

import org.apache.hadoop.hbase.io.compress.Compression;

/** The benchmark's codec names (as hfilegen's --codec) to HBase's algorithms. */
final class Codecs {
  private Codecs() {}

  static Compression.Algorithm algorithm(String name) {
    switch (name) {
      case "none": return Compression.Algorithm.NONE;
      case "lz4": return Compression.Algorithm.LZ4;
      case "gz": return Compression.Algorithm.GZ;
      case "snappy": return Compression.Algorithm.SNAPPY;
      default: throw new IllegalArgumentException("codec " + name + " (none, lz4, gz, snappy)");
    }
  }
}
