package avro_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/avro"
)

func TestCursorPrimitives(t *testing.T) {
	var b []byte
	for _, v := range []int64{0, -1, 1, 63, -64, 64, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64} {
		b = binary.AppendVarint(b, v)
	}
	c := avro.NewCursor(b)
	for _, want := range []int64{0, -1, 1, 63, -64, 64, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64} {
		got, err := c.Long()
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	require.Zero(t, c.Len())

	b = binary.AppendVarint(nil, 3)
	b = append(b, "abcd"...)
	c.Reset(b)
	got, err := c.Bytes()
	require.NoError(t, err)
	require.Equal(t, []byte("abc"), got)
	require.Equal(t, 3, cap(got), "a view ends with its value")
	require.Equal(t, 4, c.Pos())
	require.NoError(t, c.Skip(1))
	require.Zero(t, c.Len())
}

func TestCursorCorrupt(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		read func(c *avro.Cursor) error
	}{
		{"empty long", nil, func(c *avro.Cursor) error { _, err := c.Long(); return err }},
		{"unterminated long", []byte{0x80, 0x80}, func(c *avro.Cursor) error { _, err := c.Long(); return err }},
		{"overlong varint", bytes.Repeat([]byte{0xff}, 11), func(c *avro.Cursor) error { _, err := c.Long(); return err }},
		{"int out of range", binary.AppendVarint(nil, math.MaxInt32+1), func(c *avro.Cursor) error { _, err := c.Int(); return err }},
		{"negative length", binary.AppendVarint(nil, -1), func(c *avro.Cursor) error { _, err := c.Bytes(); return err }},
		{"length beyond block", binary.AppendVarint(nil, 5), func(c *avro.Cursor) error { _, err := c.Bytes(); return err }},
		{"skip beyond block", nil, func(c *avro.Cursor) error { return c.Skip(1) }},
		{"negative skip", nil, func(c *avro.Cursor) error { return c.Skip(-1) }},
		{"union index", binary.AppendVarint(nil, 2), func(c *avro.Cursor) error { _, err := c.Index(2); return err }},
		{"negative union index", binary.AppendVarint(nil, -1), func(c *avro.Cursor) error { _, err := c.Index(2); return err }},
		{"huge block count", binary.AppendVarint(nil, 1<<40), func(c *avro.Cursor) error {
			budget := c.Budget()
			_, _, err := c.Block(&budget)
			return err
		}},
		{"min block count", binary.AppendVarint(nil, math.MinInt64), func(c *avro.Cursor) error {
			budget := c.Budget()
			_, _, err := c.Block(&budget)
			return err
		}},
		{"negative block size", binary.AppendVarint(binary.AppendVarint(nil, -1), -5), func(c *avro.Cursor) error {
			budget := c.Budget()
			_, _, err := c.Block(&budget)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := avro.NewCursor(tt.data)
			require.ErrorIs(t, tt.read(&c), avro.ErrCorrupt)
		})
	}
}
