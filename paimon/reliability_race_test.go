//go:build race

package paimon_test

// relRace is true in -race builds, where the reliability matrices sample
// fewer points (the race detector slows every case down about tenfold).
const relRace = true
