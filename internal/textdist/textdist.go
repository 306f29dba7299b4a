// Package textdist finds the closest of a set of names to a misspelt one,
// for the "did you mean" hints of the command (commands, databases,
// tables) and of option keys (internal/coreoptions). One implementation
// serves both, so every hint follows the same rule.
package textdist

import "strings"

// Closest returns the candidate closest to name, or "" when none is close:
// an edit distance (case-insensitive) of at most a third of the name's
// length (at least 1), or one being a prefix of the other. A candidate
// equal to name is skipped.
func Closest(name string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := Distance(strings.ToLower(name), strings.ToLower(c))
		limit := max(1, len(name)/3)
		if d > limit && !strings.HasPrefix(c, name) && !strings.HasPrefix(name, c) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance is the optimal-string-alignment distance of a and b in bytes:
// insertions, deletions, substitutions and swaps of neighbours ("scna" is
// one edit from "scan").
func Distance(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(a)][len(b)]
}
