package manifest

import (
	"errors"
	"fmt"
)

// The checks below cover the values this package itself interprets. They run
// on decode (a failure wraps ErrCorrupt) and on encode (ErrInvalid). An empty
// name is refused because a null record in a pre-0.9 file, which Java cannot
// read either, decodes as the zero struct; no Paimon writer produces empty
// file names.

func checkManifestEntry(e *ManifestEntry) error {
	if !e.Kind.Valid() {
		return fmt.Errorf("unknown _KIND %d", e.Kind)
	}
	if e.File.FileName == "" {
		return errors.New("empty or null _FILE")
	}
	if s := e.File.FileSource; s != nil && !s.Valid() {
		return fmt.Errorf("unknown _FILE_SOURCE %d", *s)
	}
	return nil
}

func checkManifestFileMeta(m *ManifestFileMeta) error {
	if m.FileName == "" {
		return errors.New("empty _FILE_NAME")
	}
	return nil
}

func checkIndexManifestEntry(e *IndexManifestEntry) error {
	if !e.Kind.Valid() {
		return fmt.Errorf("unknown _KIND %d", e.Kind)
	}
	if e.IndexFile.FileName == "" {
		return errors.New("empty _FILE_NAME")
	}
	for i := range e.IndexFile.DVRanges {
		if e.IndexFile.DVRanges[i].DataFileName == "" {
			return fmt.Errorf("_DELETIONS_VECTORS_RANGES[%d]: empty or null range", i)
		}
	}
	return nil
}

// The checks below run on encode only. They refuse values Java Paimon cannot
// read back: a serialized BinaryRow shorter than its 4-byte arity prefix
// (SerializationUtils.deserializeBinaryRow underflows) and a null
// _NULL_COUNTS array (SimpleStats.fromRow dereferences it). Decoding stays
// lenient and hands such values out as they are.

func checkRow(name string, b []byte) error {
	if len(b) < 4 {
		return fmt.Errorf("%s: %d bytes is not a serialized BinaryRow (use EmptyRow for no fields)", name, len(b))
	}
	return nil
}

func checkStats(name string, s *SimpleStats) error {
	if err := checkRow(name+"._MIN_VALUES", s.MinValues); err != nil {
		return err
	}
	if err := checkRow(name+"._MAX_VALUES", s.MaxValues); err != nil {
		return err
	}
	if s.NullCounts == nil {
		return fmt.Errorf("%s._NULL_COUNTS: null array, which Java cannot read (use EmptyStats for no stats)", name)
	}
	return nil
}

func checkWritableManifestEntry(e *ManifestEntry) error {
	if err := checkManifestEntry(e); err != nil {
		return err
	}
	f := &e.File
	for _, err := range []error{
		checkRow("_PARTITION", e.Partition),
		checkRow("_MIN_KEY", f.MinKey),
		checkRow("_MAX_KEY", f.MaxKey),
		checkStats("_KEY_STATS", &f.KeyStats),
		checkStats("_VALUE_STATS", &f.ValueStats),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

func checkWritableManifestFileMeta(m *ManifestFileMeta) error {
	if err := checkManifestFileMeta(m); err != nil {
		return err
	}
	return checkStats("_PARTITION_STATS", &m.PartitionStats)
}

func checkWritableIndexManifestEntry(e *IndexManifestEntry) error {
	if err := checkIndexManifestEntry(e); err != nil {
		return err
	}
	return checkRow("_PARTITION", e.Partition)
}
