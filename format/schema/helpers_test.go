package schema_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

// readJSONL decodes a JSON-lines golden file into records.
func readJSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	require.NoError(t, err)
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), sc.Text())
		out = append(out, rec)
	}
	require.NoError(t, sc.Err())
	return out
}
