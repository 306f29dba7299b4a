package blobfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrDescriptor reports bytes that are not a serialized BLOB descriptor.
var ErrDescriptor = errors.New("blobfile: invalid BLOB descriptor")

// descriptorMagic follows the version byte of a version-2 descriptor
// ("BLOBDESC" as a little-endian int64, Java BlobDescriptor.MAGIC).
const descriptorMagic = 0x424C4F4244455343

// DescriptorVersion is the newest descriptor version Java writes (1.4.2 and
// 2.0.0: 2).
const DescriptorVersion = 2

// Descriptor is a reference to a BLOB's bytes: length bytes at offset of the
// object uri names; a negative length (Java writes -1) means up to the
// object's end. It mirrors Java's BlobDescriptor, which a table with
// blob-descriptor-field stores, serialized, in its data files instead of
// the bytes.
type Descriptor struct {
	Version byte
	URI     string
	Offset  int64
	Length  int64
}

// ParseDescriptor decodes a serialized descriptor (Java
// BlobDescriptor.deserialize): all integers little endian,
//
//	version    byte (1 or 2)
//	magic      int64 "BLOBDESC", version 2 only
//	uriLength  int32, then the URI's UTF-8 bytes
//	offset     int64
//	length     int64
//
// Anything else is an error wrapping ErrDescriptor; nothing is allocated
// beyond the URI, which is bounded by len(b).
func ParseDescriptor(b []byte) (Descriptor, error) {
	bad := func(format string, args ...any) (Descriptor, error) {
		return Descriptor{}, fmt.Errorf("%w: %s", ErrDescriptor, fmt.Sprintf(format, args...))
	}
	if len(b) < 1 {
		return bad("empty")
	}
	d := Descriptor{Version: b[0]}
	rest := b[1:]
	switch {
	case d.Version > DescriptorVersion:
		return bad("version %d, newest known %d", d.Version, DescriptorVersion)
	case d.Version > 1:
		if len(rest) < 8 {
			return bad("%d bytes, too short", len(b))
		}
		if m := binary.LittleEndian.Uint64(rest); m != descriptorMagic {
			return bad("magic %#x, want %#x", m, uint64(descriptorMagic))
		}
		rest = rest[8:]
	}
	if len(rest) < 4 {
		return bad("%d bytes, too short", len(b))
	}
	n := int64(int32(binary.LittleEndian.Uint32(rest)))
	rest = rest[4:]
	if n < 0 || n > int64(len(rest)) || int64(len(rest))-n < 16 {
		return bad("URI of %d bytes in a descriptor of %d", n, len(b))
	}
	uri := rest[:n]
	if !utf8.Valid(uri) {
		// Java decodes with replacement characters; a URI that is not
		// UTF-8 names no object Java could open either.
		return bad("URI is not UTF-8")
	}
	d.URI = string(uri)
	rest = rest[n:]
	d.Offset = int64(binary.LittleEndian.Uint64(rest))
	d.Length = int64(binary.LittleEndian.Uint64(rest[8:]))
	return d, nil
}

// AppendDescriptor appends the serialized form of d (version 2, whatever
// d.Version says) to b.
func AppendDescriptor(b []byte, d Descriptor) []byte {
	b = append(b, DescriptorVersion)
	b = binary.LittleEndian.AppendUint64(b, descriptorMagic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(d.URI)))
	b = append(b, d.URI...)
	b = binary.LittleEndian.AppendUint64(b, uint64(d.Offset))
	return binary.LittleEndian.AppendUint64(b, uint64(d.Length))
}
