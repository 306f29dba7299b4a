package schema_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

func seedTypeStrings(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "type_strings.txt"))
	require.NoError(f, err)
	for _, line := range strings.Split(string(raw), "\n") {
		f.Add(line)
	}
	for _, g := range readJSONL[compositeGolden](f, "composite_types.golden.jsonl") {
		f.Add(g.SQL)
	}
}

func seedSchemaFiles(f *testing.F) {
	matches, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	require.NoError(f, err)
	for _, m := range matches {
		b, err := os.ReadFile(m)
		require.NoError(f, err)
		f.Add(b)
	}
}

// FuzzParseType: ParseType never panics, fails only with ErrInvalidType, and
// what it accepts is valid, prints to a string it parses back to the same
// string, and survives a JSON round trip.
func FuzzParseType(f *testing.F) {
	seedTypeStrings(f)
	f.Fuzz(func(t *testing.T, s string) {
		dt, err := schema.ParseType(s)
		if err != nil {
			require.ErrorIs(t, err, schema.ErrInvalidType)
			return
		}
		require.NoError(t, dt.Validate())
		again, err := schema.ParseType(dt.String())
		require.NoError(t, err, "reparse of %q", dt.String())
		require.Equal(t, dt.String(), again.String())
		if !utf8.ValidString(s) {
			return // JSON replaces invalid UTF-8, as Java strings cannot hold it
		}
		b, err := json.Marshal(dt)
		require.NoError(t, err)
		var back schema.DataType
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		require.True(t, dt.Equal(back), "%s vs %s", dt, back)
	})
}

// FuzzUnmarshalDataType: type JSON never panics and fails with ErrCorrupt.
func FuzzUnmarshalDataType(f *testing.F) {
	for _, g := range readJSONL[compositeGolden](f, "composite_types.golden.jsonl") {
		f.Add([]byte(g.JSON))
	}
	f.Add(readTestdata(f, "highly_complex_nested_row_type.json"))
	f.Add([]byte(`{"type":"ROW","fields":[{"name":"a","type":"INT"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var dt schema.DataType
		if err := json.Unmarshal(data, &dt); err != nil {
			if json.Valid(data) {
				require.ErrorIs(t, err, schema.ErrCorrupt)
			}
			return
		}
		if dt.Root == schema.InvalidRoot {
			return // JSON null: left unchanged
		}
		b, err := json.Marshal(dt)
		require.NoError(t, err)
		var back schema.DataType
		require.NoError(t, json.Unmarshal(b, &back))
		require.True(t, dt.Equal(back))
	})
}

// FuzzDecodeTableSchema: Decode never panics and fails with ErrCorrupt;
// what it accepts encodes, and decoding that encoding is stable.
func FuzzDecodeTableSchema(f *testing.F) {
	seedSchemaFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := schema.Decode(data)
		if err != nil {
			require.ErrorIs(t, err, schema.ErrCorrupt)
			return
		}
		enc, err := s.Encode()
		require.NoError(t, err)
		s2, err := schema.Decode(enc)
		require.NoError(t, err, "%s", enc)
		enc2, err := s2.Encode()
		require.NoError(t, err)
		require.Equal(t, string(enc), string(enc2))
	})
}

// FuzzDecodeSchema: the create-table Schema decoder never panics and fails
// with ErrInvalidSchema; what it accepts round-trips.
func FuzzDecodeSchema(f *testing.F) {
	seedSchemaFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := schema.DecodeSchema(data)
		if err != nil {
			require.ErrorIs(t, err, schema.ErrInvalidSchema)
			return
		}
		enc, err := s.Encode()
		require.NoError(t, err)
		s2, err := schema.DecodeSchema(enc)
		require.NoError(t, err, "%s", enc)
		enc2, err := s2.Encode()
		require.NoError(t, err)
		require.Equal(t, string(enc), string(enc2))
	})
}
