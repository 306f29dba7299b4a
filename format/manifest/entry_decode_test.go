package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/avro"
)

// reflectReadManifest is how manifests were read before entryProgram:
// internal/avro's reflective Reader resolving the writer schema against the
// 1.4.2 schema. The compiled decoder must agree with it.
func reflectReadManifest(r io.Reader) ([]ManifestEntry, error) {
	ar, err := avro.NewReader(r, manifestEntrySchema)
	if err != nil {
		return nil, classify(err)
	}
	defer ar.Close()
	var out []ManifestEntry
	for n := 0; ; n++ {
		var rec manifestEntryRecord
		if err := ar.Decode(&rec); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("record %d: %w", n, classify(err))
		}
		if err := checkVersion(rec.Version, manifestEntryVersion); err != nil {
			return nil, err
		}
		if err := checkManifestEntry(&rec.ManifestEntry); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		out = append(out, rec.ManifestEntry)
	}
}

// requireSameRead decodes data both ways and requires equal entries, or
// errors wrapping the same sentinel.
func requireSameRead(t *testing.T, data []byte) []ManifestEntry {
	t.Helper()
	want, wantErr := reflectReadManifest(bytes.NewReader(data))
	got, gotErr := ReadManifest(bytes.NewReader(data))
	if wantErr != nil {
		require.Error(t, gotErr, "the reflective reader failed with %v", wantErr)
		for _, target := range []error{ErrCorrupt, ErrUnsupportedVersion, avro.ErrIncompatibleSchema} {
			require.Equal(t, errors.Is(wantErr, target), errors.Is(gotErr, target),
				"sentinel %v: reflective %v, compiled %v", target, wantErr, gotErr)
		}
		return nil
	}
	require.NoError(t, gotErr)
	require.Equal(t, want, got)
	// A size hint, right or wrong, changes nothing.
	for _, n := range []int{1, len(got), len(got) + 7} {
		hinted, err := ReadManifestN(bytes.NewReader(data), n)
		require.NoError(t, err)
		require.Equal(t, want, hinted, "hint %d", n)
	}
	// The streaming reader decodes the same entries.
	rd, err := NewManifestReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer rd.Close()
	for i := range got {
		e, err := rd.Next()
		require.NoError(t, err)
		require.Equal(t, got[i], e)
	}
	_, err = rd.Next()
	require.ErrorIs(t, err, io.EOF)
	return got
}

func TestEntryDecoderMatchesReflectionOnFixtures(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		"../../testdata/golden/*/*/warehouse/*/*/manifest/manifest-*",
		"testdata/*/manifest-*",
	} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, m...)
	}
	n := 0
	for _, f := range files {
		if strings.Contains(filepath.Base(f), "manifest-list-") {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		t.Run(filepath.Base(f), func(t *testing.T) {
			requireSameRead(t, data)
		})
		n++
	}
	require.Greater(t, n, 100, "fixtures found")
}

// variant writes one record shaped by a writer schema that differs from
// the 1.4.2 one, for the resolution cases Avro and Paimon allow.
type variant struct {
	name   string
	schema string
	record map[string]any
}

const (
	v142Stats = `{"type":"record","name":"%s","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},` +
		`{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}`
)

// fileFields is the 1.4.2 _FILE record's fields as a list to edit.
func fileFields() []string {
	return []string{
		`{"name":"_FILE_NAME","type":"string"}`,
		`{"name":"_FILE_SIZE","type":"long"}`,
		`{"name":"_ROW_COUNT","type":"long"}`,
		`{"name":"_MIN_KEY","type":"bytes"}`,
		`{"name":"_MAX_KEY","type":"bytes"}`,
		`{"name":"_KEY_STATS","type":` + fmt.Sprintf(v142Stats, "k") + `}`,
		`{"name":"_VALUE_STATS","type":` + fmt.Sprintf(v142Stats, "v") + `}`,
		`{"name":"_MIN_SEQUENCE_NUMBER","type":"long"}`,
		`{"name":"_MAX_SEQUENCE_NUMBER","type":"long"}`,
		`{"name":"_SCHEMA_ID","type":"long"}`,
		`{"name":"_LEVEL","type":"int"}`,
		`{"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}}`,
		`{"name":"_CREATION_TIME","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null}`,
		`{"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null}`,
		`{"name":"_EMBEDDED_FILE_INDEX","type":["null","bytes"],"default":null}`,
		`{"name":"_FILE_SOURCE","type":["null","int"],"default":null}`,
		`{"name":"_VALUE_STATS_COLS","type":["null",{"type":"array","items":"string"}],"default":null}`,
		`{"name":"_EXTERNAL_PATH","type":["null","string"],"default":null}`,
		`{"name":"_FIRST_ROW_ID","type":["null","long"],"default":null}`,
		`{"name":"_WRITE_COLS","type":["null",{"type":"array","items":"string"}],"default":null}`,
	}
}

func entrySchema(file []string, extraTop ...string) string {
	top := []string{
		`{"name":"_VERSION","type":"int"}`, `{"name":"_KIND","type":"int"}`, `{"name":"_PARTITION","type":"bytes"}`,
		`{"name":"_BUCKET","type":"int"}`, `{"name":"_TOTAL_BUCKETS","type":"int"}`,
		`{"name":"_FILE","type":{"type":"record","name":"f","fields":[` + strings.Join(file, ",") + `]}}`,
	}
	top = append(top, extraTop...)
	return `{"type":"record","name":"e","namespace":"x.y","fields":[` + strings.Join(top, ",") + `]}`
}

func replaceField(fields []string, name, with string) []string {
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		if strings.HasPrefix(f, `{"name":"`+name+`"`) {
			if with != "" {
				out = append(out, with)
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

func rowBytes(n byte) []byte {
	return []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, n, 0, 0, 0, 0, 0, 0, 0}
}

func fileRecord() map[string]any {
	stats := func(b byte) map[string]any {
		return map[string]any{"_MIN_VALUES": rowBytes(b), "_MAX_VALUES": rowBytes(b + 1), "_NULL_COUNTS": []any{int64(1), nil}}
	}
	return map[string]any{
		"_FILE_NAME": "data-1.parquet", "_FILE_SIZE": int64(1 << 33), "_ROW_COUNT": int64(10),
		"_MIN_KEY": rowBytes(1), "_MAX_KEY": rowBytes(2), "_KEY_STATS": stats(3), "_VALUE_STATS": stats(5),
		"_MIN_SEQUENCE_NUMBER": int64(-4), "_MAX_SEQUENCE_NUMBER": int64(9), "_SCHEMA_ID": int64(2), "_LEVEL": int32(3),
		"_EXTRA_FILES": []string{"a.index", ""}, "_CREATION_TIME": int64(1725608755039), "_DELETE_ROW_COUNT": int64(0),
		"_EMBEDDED_FILE_INDEX": []byte{}, "_FILE_SOURCE": int32(1), "_VALUE_STATS_COLS": []string{},
		"_EXTERNAL_PATH": "", "_FIRST_ROW_ID": int64(7), "_WRITE_COLS": nil,
	}
}

func entryRecord(file map[string]any) map[string]any {
	return map[string]any{"_VERSION": int32(2), "_KIND": int32(1), "_PARTITION": rowBytes(9), "_BUCKET": int32(-2),
		"_TOTAL_BUCKETS": int32(-1), "_FILE": file}
}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == deleteField {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

var deleteField = new(int)

func variants() []variant {
	ff := fileFields()
	file := fileRecord()
	entry := entryRecord(file)
	nullableStats := `["null",` + fmt.Sprintf(v142Stats, "ks") + `]`
	return []variant{
		{"1.4.2", entrySchema(ff), entry},
		{"int file size and schema id", entrySchema(replaceField(replaceField(ff, "_FILE_SIZE", `{"name":"_FILE_SIZE","type":"int"}`),
			"_SCHEMA_ID", `{"name":"_SCHEMA_ID","type":"int"}`)), entryRecord(with(file, "_FILE_SIZE", int32(5), "_SCHEMA_ID", int32(-1)))},
		{"non-null writer for nullable fields", entrySchema(replaceField(replaceField(ff, "_DELETE_ROW_COUNT", `{"name":"_DELETE_ROW_COUNT","type":"long"}`),
			"_EXTERNAL_PATH", `{"name":"_EXTERNAL_PATH","type":"string"}`)), entryRecord(with(file, "_EXTERNAL_PATH", "s3://x"))},
		{"null second in unions", entrySchema(replaceField(replaceField(ff, "_FIRST_ROW_ID", `{"name":"_FIRST_ROW_ID","type":["long","null"]}`),
			"_FILE_SOURCE", `{"name":"_FILE_SOURCE","type":["int","null"]}`)), entryRecord(with(file, "_FILE_SOURCE", nil))},
		{"bytes file name", entrySchema(replaceField(ff, "_FILE_NAME", `{"name":"_FILE_NAME","type":"bytes"}`)),
			entryRecord(with(file, "_FILE_NAME", []byte("b.orc")))},
		{"dropped nullable fields", entrySchema(replaceField(replaceField(replaceField(ff, "_WRITE_COLS", ""), "_FIRST_ROW_ID", ""), "_EMBEDDED_FILE_INDEX", "")),
			entryRecord(with(file, "_WRITE_COLS", deleteField, "_FIRST_ROW_ID", deleteField, "_EMBEDDED_FILE_INDEX", deleteField))},
		{"non-null counts items", entrySchema(replaceField(ff, "_KEY_STATS", `{"name":"_KEY_STATS","type":{"type":"record","name":"k","fields":[`+
			`{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":{"type":"array","items":"int"}}]}}`)),
			entryRecord(with(file, "_KEY_STATS", map[string]any{"_MIN_VALUES": rowBytes(1), "_MAX_VALUES": rowBytes(1), "_NULL_COUNTS": []int32{3, 4}}))},
		{"nullable stats record, null", entrySchema(replaceField(ff, "_KEY_STATS", `{"name":"_KEY_STATS","type":`+nullableStats+`}`)),
			entryRecord(with(file, "_KEY_STATS", nil))},
		{"nullable stats record, set", entrySchema(replaceField(ff, "_KEY_STATS", `{"name":"_KEY_STATS","type":`+nullableStats+`}`)), entry},
		{"null file record", `{"type":"record","name":"e","fields":[{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},` +
			`{"name":"_PARTITION","type":"bytes"},{"name":"_BUCKET","type":"int"},{"name":"_TOTAL_BUCKETS","type":"int"},` +
			`{"name":"_FILE","type":["null",{"type":"record","name":"f","fields":[` + strings.Join(ff, ",") + `]}]}]}`,
			entryRecord(nil)},
		{"unknown fields of every kind", entrySchema(append(ff,
			`{"name":"_X_MAP","type":{"type":"map","values":{"type":"array","items":"double"}}}`,
			`{"name":"_X_ENUM","type":{"type":"enum","name":"en","symbols":["A","B"]}}`,
			`{"name":"_X_FIXED","type":{"type":"fixed","name":"fx","size":3}}`,
			`{"name":"_X_REC","type":{"type":"record","name":"xr","fields":[{"name":"a","type":"boolean"},{"name":"b","type":"float"},{"name":"c","type":["null","string"]}]}}`,
		), `{"name":"_X_TOP","type":{"type":"array","items":{"type":"record","name":"xt","fields":[{"name":"n","type":"null"},{"name":"s","type":"string"}]}}}`),
			with(entryRecord(with(file, "_X_MAP", map[string]any{"k": []float64{1.5}}, "_X_ENUM", "B", "_X_FIXED", []byte{1, 2, 3},
				"_X_REC", map[string]any{"a": true, "b": float32(2), "c": "z"})),
				"_X_TOP", []any{map[string]any{"n": nil, "s": "q"}, map[string]any{"n": nil, "s": ""}})},
		{"unreadable union branch selected", entrySchema(replaceField(ff, "_FIRST_ROW_ID", `{"name":"_FIRST_ROW_ID","type":["null","long","string"]}`)),
			entryRecord(with(file, "_FIRST_ROW_ID", "x"))},
		{"unreadable union branch not selected", entrySchema(replaceField(ff, "_FIRST_ROW_ID", `{"name":"_FIRST_ROW_ID","type":["null","long","string"]}`)),
			entry},
		{"null for a non-null int", entrySchema(replaceField(ff, "_LEVEL", `{"name":"_LEVEL","type":["null","int"]}`)),
			entryRecord(with(file, "_LEVEL", nil))},
		{"nullable non-null int set", entrySchema(replaceField(ff, "_LEVEL", `{"name":"_LEVEL","type":["null","int"]}`)), entry},
		{"kind out of range", entrySchema(ff), with(entry, "_KIND", int32(300))},
		{"unknown kind", entrySchema(ff), with(entry, "_KIND", int32(2))},
		{"file source out of range", entrySchema(ff), entryRecord(with(file, "_FILE_SOURCE", int32(-129)))},
		{"version 1", entrySchema(ff), with(entry, "_VERSION", int32(1))},
		{"missing required field", entrySchema(replaceField(ff, "_LEVEL", "")), entryRecord(with(file, "_LEVEL", deleteField))},
		{"long where int is read", entrySchema(replaceField(ff, "_LEVEL", `{"name":"_LEVEL","type":"long"}`)), entryRecord(with(file, "_LEVEL", int64(1)))},
		{"string where long is read", entrySchema(replaceField(ff, "_ROW_COUNT", `{"name":"_ROW_COUNT","type":"string"}`)), entryRecord(with(file, "_ROW_COUNT", "1"))},
	}
}

func TestEntryDecoderMatchesReflectionOnVariants(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			for _, codec := range []string{"null", "zstandard"} {
				var buf bytes.Buffer
				w, err := avro.NewWriter(&buf, avro.MustParseSchema(v.schema), &avro.WriterOptions{Codec: codec})
				require.NoError(t, err)
				// Enough records for several blocks.
				for range 600 {
					require.NoError(t, w.Encode(v.record))
				}
				require.NoError(t, w.Close())
				requireSameRead(t, buf.Bytes())
			}
		})
	}
}

// TestEntryDecoderViews checks what entries decoded from one block share:
// bytes fields are views that do not overlap, so that appending to one
// never changes another.
func TestEntryDecoderViews(t *testing.T) {
	var buf bytes.Buffer
	e := ManifestEntry{Kind: FileKindAdd, Partition: rowBytes(1), File: DataFileMeta{FileName: "a", MinKey: rowBytes(2), MaxKey: rowBytes(3),
		KeyStats: EmptyStats(), ValueStats: EmptyStats()}}
	require.NoError(t, WriteManifest(&buf, []ManifestEntry{e, e}, nil))
	got, err := ReadManifest(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.Len(t, got, 2)
	_ = append(got[0].Partition, 0xff)
	_ = append(got[0].File.MinKey, 0xff)
	require.Equal(t, e.Partition, got[0].Partition)
	require.Equal(t, e.File.MaxKey, got[0].File.MaxKey)
	require.Equal(t, e.Partition, got[1].Partition)
	require.Equal(t, []*int64{}, got[1].File.KeyStats.NullCounts)
	require.NotNil(t, got[1].File.ExtraFiles)
}
