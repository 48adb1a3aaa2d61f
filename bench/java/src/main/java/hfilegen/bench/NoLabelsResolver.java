package hfilegen.bench;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.mapreduce.VisibilityExpressionResolver;

/**
 * Stands in for ImportTsv's DefaultVisibilityExpressionResolver, which opens a
 * cluster connection in every map and reduce task to read the `labels` table.
 * There is no cluster in a LocalJobRunner run (and on a cluster without
 * visibility labels that scan finds no table and returns). The benchmark's TSV
 * has no visibility column, so no expression is ever resolved.
 */
public final class NoLabelsResolver implements VisibilityExpressionResolver {
  private Configuration conf;

  @Override
  public void init() {}

  @Override
  public List<Tag> createVisibilityExpTags(String visExpression) throws IOException {
    throw new IOException("no visibility labels in the benchmark: " + visExpression);
  }

  @Override
  public void setConf(Configuration c) {
    this.conf = c;
  }

  @Override
  public Configuration getConf() {
    return conf;
  }
}
