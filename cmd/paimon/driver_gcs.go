//go:build !nogcs

package main

// The gcsfs driver (gs://) is linked unless the binary is built with
// -tags nogcs (see "Cloud drivers" in doc.go).
import _ "github.com/paimon-go/paimon-go/fs/blobfs/gcsfs"
