package manifest

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Identifier identifies the data file a manifest entry refers to (Java
// FileEntry.Identifier): partition bytes, bucket, level, file name, extra
// files, embedded index and external path. Two entries with equal
// identifiers refer to the same file; note that the level is part of it, so
// moving a file to another level is a DELETE and an ADD of the same name.
//
// Identifier is comparable and can be used as a map key. Nil and empty are
// different for the embedded index and the external path, as in Java.
type Identifier struct {
	partition     string
	bucket        int32
	level         int32
	fileName      string
	extraFiles    string // length-prefixed concatenation, see encodeStrings
	embeddedIndex string
	hasEmbedded   bool
	externalPath  string
	hasExternal   bool
}

// NewIdentifier builds an Identifier from its parts. The slices are copied.
func NewIdentifier(partition []byte, bucket, level int32, fileName string, extraFiles []string,
	embeddedIndex []byte, externalPath *string) Identifier {
	id := Identifier{
		partition:     string(partition),
		bucket:        bucket,
		level:         level,
		fileName:      fileName,
		extraFiles:    encodeStrings(extraFiles),
		embeddedIndex: string(embeddedIndex),
		hasEmbedded:   embeddedIndex != nil,
	}
	if externalPath != nil {
		id.externalPath, id.hasExternal = *externalPath, true
	}
	return id
}

// Identifier returns the identifier of the file e refers to.
func (e *ManifestEntry) Identifier() Identifier {
	f := &e.File
	return NewIdentifier(e.Partition, e.Bucket, f.Level, f.FileName, f.ExtraFiles,
		f.EmbeddedIndex, f.ExternalPath)
}

// Partition returns the serialized partition BinaryRow.
func (id Identifier) Partition() []byte { return []byte(id.partition) }

// Bucket returns the bucket id.
func (id Identifier) Bucket() int32 { return id.bucket }

// Level returns the LSM level.
func (id Identifier) Level() int32 { return id.level }

// FileName returns the data file name.
func (id Identifier) FileName() string { return id.fileName }

// ExtraFiles returns the extra file names.
func (id Identifier) ExtraFiles() []string { return decodeStrings(id.extraFiles) }

// EmbeddedIndex returns the embedded file index, nil when null.
func (id Identifier) EmbeddedIndex() []byte {
	if !id.hasEmbedded {
		return nil
	}
	return []byte(id.embeddedIndex)
}

// ExternalPath returns the external path and whether it is set.
func (id Identifier) ExternalPath() (string, bool) { return id.externalPath, id.hasExternal }

// String formats the identifier for error messages, after Java's
// Identifier.toString (the partition is shown as hex bytes).
func (id Identifier) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "{partition=%x, bucket=%d, level=%d, fileName=%s, extraFiles=[%s], embeddedIndex=",
		id.partition, id.bucket, id.level, id.fileName, strings.Join(id.ExtraFiles(), ", "))
	if id.hasEmbedded {
		fmt.Fprintf(&b, "%x", id.embeddedIndex)
	} else {
		b.WriteString("null")
	}
	b.WriteString(", externalPath=")
	if id.hasExternal {
		b.WriteString(strconv.Quote(id.externalPath))
	} else {
		b.WriteString("null")
	}
	b.WriteByte('}')
	return b.String()
}

// encodeStrings joins strings unambiguously (uvarint length before each), so
// that equal lists, and only those, give equal encodings.
func encodeStrings(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	var b []byte
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return string(b)
}

func decodeStrings(enc string) []string {
	var out []string
	for len(enc) > 0 {
		n, k := binary.Uvarint([]byte(enc[:min(len(enc), binary.MaxVarintLen64)]))
		enc = enc[k:]
		out = append(out, enc[:n])
		enc = enc[n:]
	}
	return out
}
