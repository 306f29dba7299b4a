package rest_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog/rest"
	"github.com/paimon-go/paimon-go/internal/interop"
)

// TestSignerGoldenUpdate regenerates testdata/dlf-signatures.golden from
// Java's DLF signers:
//
//	PAIMON_INTEROP=1 go test ./catalog/rest -run TestSignerGoldenUpdate -update
func TestSignerGoldenUpdate(t *testing.T) {
	if !rest.UpdateGolden() {
		t.Skip("run with -update (and PAIMON_INTEROP=1) to regenerate the golden signatures")
	}
	if !interop.Enabled() {
		t.Fatal("-update needs PAIMON_INTEROP=1: the golden signatures come from Java")
	}
	var sb strings.Builder
	for _, v := range rest.SignerVectors() {
		out, err := interop.JavaSign(context.Background(), v.JavaArgs()...)
		require.NoError(t, err)
		sb.WriteString("### " + v.Name + "\n" + out)
	}
	require.NoError(t, os.MkdirAll("testdata", 0o755))
	require.NoError(t, os.WriteFile("testdata/dlf-signatures.golden", []byte(sb.String()), 0o644))
}
