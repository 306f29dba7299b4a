package interop_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
)

// javaKey is one line of PaimonInterop genkeys: a row Java's BinaryRowWriter
// wrote, its manifest serialisation, BinaryRow.hashCode and the fixed bucket
// Java's DefaultBucketFunction assigns for several bucket counts.
type javaKey struct {
	Types      []json.RawMessage `json:"types"`
	Values     []json.RawMessage `json:"values"`
	Row        string            `json:"row"`
	Serialized string            `json:"serialized"`
	Hash       int32             `json:"hash"`
	Buckets    map[string]int    `json:"buckets"`
}

// TestGoldenBinaryRowKeys checks BinaryRow bytes, serialisation, hash and
// buckets against the keys Java Paimon generated for the golden corpus.
func TestGoldenBinaryRowKeys(t *testing.T) {
	root, err := interop.RepoRoot()
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(root, "testdata", "golden", "java-*", "binaryrow-keys.jsonl"))
	require.NoError(t, err)
	if len(files) == 0 {
		t.Fatal("no testdata/golden/java-*/binaryrow-keys.jsonl (regenerate with TestGoldenUpdate)")
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			n := checkJavaKeys(t, f)
			require.GreaterOrEqual(t, n, 1000, "the corpus promises at least 1,000 keys")
		})
	}
}

// TestLiveBinaryRowKeys asks the installed Java Paimon versions for fresh
// random keys (the seed is logged) and checks them the same way.
func TestLiveBinaryRowKeys(t *testing.T) {
	for _, r := range interop.RequireJava(t) {
		t.Run(r.Name(), func(t *testing.T) {
			seed := time.Now().UnixNano() % 1_000_000_007
			t.Logf("genkeys seed %d (replay with the same seed to reproduce)", seed)
			out := filepath.Join(t.TempDir(), "keys.jsonl")
			_, err := r.Run(context.Background(), "genkeys", out, strconv.FormatInt(seed, 10), "400")
			require.NoError(t, err)
			require.Equal(t, 400, checkJavaKeys(t, out))
		})
	}
}

func checkJavaKeys(t *testing.T, file string) int {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	n := 0
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		n++
		var k javaKey
		require.NoError(t, json.Unmarshal(sc.Bytes(), &k), "line %d", n)
		if err := checkJavaKey(k); err != nil {
			t.Errorf("%s line %d: %v\n  %s", filepath.Base(file), n, err, sc.Text())
		}
	}
	require.NoError(t, sc.Err())
	return n
}

func checkJavaKey(k javaKey) error {
	types := make([]schema.DataType, len(k.Types))
	for i, raw := range k.Types {
		if err := json.Unmarshal(raw, &types[i]); err != nil {
			return fmt.Errorf("type %s: %w", raw, err)
		}
	}
	want := make([]any, len(k.Values))
	hasMap := false
	for i, raw := range k.Values {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var j any
		if err := dec.Decode(&j); err != nil {
			return err
		}
		v, err := canon.DecodeValue(types[i], j)
		if err != nil {
			return fmt.Errorf("value %d: %w", i, err)
		}
		want[i] = v
		hasMap = hasMap || containsMap(types[i])
	}
	javaRow, err := hex.DecodeString(k.Row)
	if err != nil {
		return err
	}
	// 1. Our decoder reads Java's bytes back to the values Java rendered.
	row, err := binaryrow.NewRow(javaRow, len(types))
	if err != nil {
		return fmt.Errorf("decode Java row: %w", err)
	}
	got, err := row.Values(types)
	if err != nil {
		return fmt.Errorf("decode Java row: %w", err)
	}
	for i := range types {
		a, err1 := canonJSON(types[i], got[i])
		b, err2 := canonJSON(types[i], want[i])
		if err1 != nil || err2 != nil || a != b {
			return fmt.Errorf("field %d decoded as %s, Java printed %s (%v %v)", i, a, b, err1, err2)
		}
	}
	// 2. Re-encoding the decoded values gives Java's bytes. (Maps keep Java's
	// HashMap entry order only through the decoded values.)
	enc, err := binaryrow.Encode(data.Insert, types, got)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if !bytes.Equal(enc, javaRow) {
		return fmt.Errorf("re-encoded row\n  got  %x\n  want %x", enc, javaRow)
	}
	// 3. Encoding straight from the canonical values, where entry order
	// cannot differ.
	if !hasMap {
		enc, err := binaryrow.Encode(data.Insert, types, want)
		if err != nil {
			return fmt.Errorf("encode canonical values: %w", err)
		}
		if !bytes.Equal(enc, javaRow) {
			return fmt.Errorf("row from canonical values\n  got  %x\n  want %x", enc, javaRow)
		}
	}
	if s := hex.EncodeToString(binaryrow.MarshalSerialized(enc, len(types))); s != k.Serialized {
		return fmt.Errorf("serialized\n  got  %s\n  want %s", s, k.Serialized)
	}
	if h := binaryrow.Hash(enc); h != k.Hash {
		return fmt.Errorf("hash %d, Java %d", h, k.Hash)
	}
	for nb, want := range k.Buckets {
		n, err := strconv.Atoi(nb)
		if err != nil {
			return err
		}
		if b := binaryrow.DefaultBucket(k.Hash, n); b != want {
			return fmt.Errorf("bucket of %d buckets: %d, Java %d", n, b, want)
		}
	}
	return nil
}

func containsMap(t schema.DataType) bool {
	switch t.Root {
	case schema.Map, schema.Multiset:
		return true
	case schema.Array:
		return t.Element != nil && containsMap(*t.Element)
	case schema.Row:
		for _, f := range t.Fields {
			if containsMap(f.Type) {
				return true
			}
		}
	}
	return false
}

func canonJSON(t schema.DataType, v any) (string, error) {
	j, err := canon.EncodeValue(t, v)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(j)
	if err != nil {
		return "", err
	}
	return canon.Canonicalize(b)
}
