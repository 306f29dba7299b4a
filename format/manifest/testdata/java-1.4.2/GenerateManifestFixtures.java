import org.apache.paimon.format.*;
import org.apache.paimon.fs.*;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.*;
import org.apache.paimon.manifest.*;
import org.apache.paimon.io.*;
import org.apache.paimon.stats.*;
import org.apache.paimon.data.*;
import org.apache.paimon.index.*;
import org.apache.paimon.reader.*;
import java.util.*;

// Writes (mode "write") or prints (mode "read") Paimon manifest files through Java Paimon's own
// serializers and Avro file format. See ../README.md for how the fixtures here were made.
public class GenerateManifestFixtures {
  static VersionedObjectSerializer ser(String k) {
    switch (k) {
      case "manifest": return new ManifestEntrySerializer();
      case "list": return new ManifestFileMetaSerializer();
      default: return new IndexManifestEntrySerializer();
    }
  }
  static RowType type(String k) {
    switch (k) {
      case "manifest": return VersionedObjectSerializer.versionType(ManifestEntry.SCHEMA);
      case "list": return VersionedObjectSerializer.versionType(ManifestFileMeta.SCHEMA);
      default: return VersionedObjectSerializer.versionType(IndexManifestEntry.SCHEMA);
    }
  }
  static String bytes(BinaryRow r) { return Arrays.toString(SerializationUtils.serializeBinaryRow(r)); }
  static String stats(SimpleStats s) { return "{min=" + bytes(s.minValues()) + ",max=" + bytes(s.maxValues()) + ",nulls=" + (s.nullCounts()==null?"null":nulls(s.nullCounts())) + "}"; }
  static String nulls(BinaryArray a) { StringBuilder b = new StringBuilder("["); for (int i = 0; i < a.size(); i++) { b.append(a.isNullAt(i) ? "null" : String.valueOf(a.getLong(i))).append(","); } return b.append("]").toString(); }
  public static void main(String[] a) throws Exception {
    String mode = a[0], kind = a[1];
    FileFormat ff = FileFormat.fromIdentifier("avro", new Options());
    RowType t = type(kind);
    LocalFileIO io = LocalFileIO.create();
    Path p = new Path(a[2]);
    VersionedObjectSerializer s = ser(kind);
    if (mode.equals("read")) {
      FormatReaderFactory rf = ff.createReaderFactory(t, t, null);
      FileRecordReader<InternalRow> r = rf.createReader(new FormatReaderContext(io, p, io.getFileSize(p)));
      r.forEachRemaining(row -> {
        Object o = s.fromRow(row);
        if (o instanceof ManifestEntry) {
          ManifestEntry e = (ManifestEntry) o; DataFileMeta f = e.file();
          System.out.println(e.kind() + " part=" + bytes(e.partition()) + " b=" + e.bucket() + "/" + e.totalBuckets() + " " + f
            + " keyStats=" + stats(f.keyStats()) + " valueStats=" + stats(f.valueStats()) + " ctMillis=" + (f.creationTime()==null?null:f.creationTime().getMillisecond())
            + " embedded=" + Arrays.toString(f.embeddedIndex()));
        } else if (o instanceof ManifestFileMeta) {
          ManifestFileMeta m = (ManifestFileMeta) o;
          System.out.println(m + " stats=" + stats(m.partitionStats()));
        } else {
          IndexManifestEntry e = (IndexManifestEntry) o;
          GlobalIndexMeta g = e.indexFile().globalIndexMeta();
          System.out.println(e + " global=" + (g == null ? "null" : g.rowRangeStart() + ".." + g.rowRangeEnd() + " f" + g.indexFieldId() + " extra=" + Arrays.toString(g.extraFieldIds()) + " meta=" + Arrays.toString(g.indexMeta())));
        }
      });
      r.close();
    } else {
      FormatWriterFactory wf = ff.createWriterFactory(t);
      PositionOutputStream out = io.newOutputStream(p, true);
      FormatWriter w = wf.create(out, a[3]);
      BinaryRow one = BinaryRow.singleColumn(1);
      SimpleStats st = new SimpleStats(one, one, BinaryArray.fromLongArray(new Long[]{5L, null}));
      if (kind.equals("manifest")) {
        DataFileMeta full = DataFileMeta.create("data-full.parquet", 1L << 31, 1000, one, one, st, st, 0, 999, 2, 5,
          Arrays.asList("data-x.index"), Timestamp.fromEpochMillis(1725608755039L), 7L, new byte[]{1, 2}, FileSource.COMPACT,
          Arrays.asList("a", "b"), "s3://b/x", 1L << 40, Arrays.asList("a"));
        DataFileMeta sparse = DataFileMeta.create("data-sparse.orc", 10, 1, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, SimpleStats.EMPTY_STATS, SimpleStats.EMPTY_STATS,
          0, 0, 0, 0, Collections.emptyList(), null, null, null, null, null, null, null, null);
        DataFileMeta empties = DataFileMeta.create("data-empties.avro", 10, 1, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, SimpleStats.EMPTY_STATS, SimpleStats.EMPTY_STATS,
          0, 0, 0, 0, Collections.emptyList(), Timestamp.fromEpochMillis(0), 0L, new byte[0], FileSource.APPEND, Collections.emptyList(), "", 0L, Collections.emptyList());
        w.addElement(s.toRow(ManifestEntry.create(FileKind.ADD, one, 3, 8, full)));
        w.addElement(s.toRow(ManifestEntry.create(FileKind.DELETE, BinaryRow.EMPTY_ROW, 0, -1, sparse)));
        w.addElement(s.toRow(ManifestEntry.create(FileKind.ADD, BinaryRow.EMPTY_ROW, 0, -1, empties)));
      } else if (kind.equals("list")) {
        w.addElement(s.toRow(new ManifestFileMeta("manifest-a-0", 4096, 10, 2, st, 3, 0, 7, 0, 5, 0L, 1L << 33)));
        w.addElement(s.toRow(new ManifestFileMeta("manifest-b-1", 1, 0, 0, SimpleStats.EMPTY_STATS, 0, null, null, null, null, null, null)));
      } else {
        LinkedHashMap<String, DeletionVectorMeta> dv = new LinkedHashMap<>();
        dv.put("data-a.parquet", new DeletionVectorMeta("data-a.parquet", 1, 100, 12L));
        dv.put("data-b.parquet", new DeletionVectorMeta("data-b.parquet", 105, 80, null));
        w.addElement(s.toRow(new IndexManifestEntry(FileKind.ADD, one, 2, new IndexFileMeta("DELETION_VECTORS", "index-dv-0", 300, 2, dv, "oss://b/i"))));
        w.addElement(s.toRow(new IndexManifestEntry(FileKind.ADD, BinaryRow.EMPTY_ROW, 0, new IndexFileMeta("HASH", "index-hash-1", 8, 2, (LinkedHashMap<String, DeletionVectorMeta>) null, null))));
        w.addElement(s.toRow(new IndexManifestEntry(FileKind.ADD, BinaryRow.EMPTY_ROW, 0, new IndexFileMeta("btree", "index-g-2", 8, 2, null, null, new GlobalIndexMeta(0, 99, 4, new int[]{5, 6}, new byte[]{1})))));
      }
      w.close();
      out.close();
    }
  }
}
