package fileindex

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestCheckRoaringAgreesWithValidate: checkRoaring, the one-pass check
// that replaced Bitmap.Validate, accepts every bitmap roaring writes (array,
// bitmap and run containers) and never accepts damaged bytes that
// ReadFrom and Validate refuse.
func TestCheckRoaringAgreesWithValidate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var seeds [][]byte
	for i := range 60 {
		b := roaring.New()
		switch i % 3 {
		case 0: // array containers
			for range 1 + rng.IntN(3000) {
				b.Add(rng.Uint32N(1 << 18))
			}
		case 1: // bitmap containers
			for range 5000 + rng.IntN(20000) {
				b.Add(rng.Uint32N(1 << 17))
			}
		default: // run containers
			for range 1 + rng.IntN(200) {
				lo := uint64(rng.Uint32N(1 << 18))
				b.AddRange(lo, lo+1+uint64(rng.IntN(300)))
			}
			b.RunOptimize()
		}
		var buf bytes.Buffer
		if _, err := b.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		buf.WriteString("tail")
		n, err := checkRoaring(buf.Bytes())
		if err != nil || n != buf.Len()-4 {
			t.Fatalf("bitmap %d: %d of %d bytes, %v", i, n, buf.Len()-4, err)
		}
		seeds = append(seeds, buf.Bytes()[:n])
	}
	accepted := 0
	for i := range 20000 {
		b := bytes.Clone(seeds[i%len(seeds)])
		for range 1 + rng.IntN(3) {
			p := rng.IntN(min(len(b), 64+rng.IntN(len(b))))
			b[p] ^= byte(1 + rng.IntN(255))
		}
		n, err := checkRoaring(b)
		if err != nil {
			continue
		}
		accepted++
		rb := roaring.New()
		m, err := rb.ReadFrom(bytes.NewReader(b[:n]))
		if err == nil {
			err = rb.Validate()
		}
		if err != nil || m != int64(n) {
			t.Fatalf("mutation %d: checkRoaring accepted %d bytes, roaring read %d: %v", i, n, m, err)
		}
	}
	t.Logf("%d of 20000 mutations accepted (and valid)", accepted)
}
