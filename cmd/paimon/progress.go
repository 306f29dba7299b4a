package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/paimon-go/paimon-go/paimon/health"
)

// isTerminal reports whether w is a terminal (a character device). Long
// operations draw a progress bar on standard error only then, so that
// piped or redirected output and logs stay clean. golang.org/x/term would
// ask the terminal driver; a character device is a close enough answer
// without a dependency (/dev/null is one too, and a bar there is harmless).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Progress bar layout.
const (
	progressEvery    = 150 * time.Millisecond // redraw at most this often
	progressBarWidth = 24
	clearLine        = "\r\x1b[K"
)

// progress draws a one-line progress indicator: a bar with a percentage
// when the total is known, otherwise a spinner with the count so far, and
// the elapsed time. A disabled progress does nothing and costs nothing. It
// is safe for concurrent use; a ticker keeps the line moving while the
// count does not (expiration reports no progress at all).
type progress struct {
	w     io.Writer
	label string
	unit  string // "bytes" (sizes shown in binary units) or a count noun
	total int64  // 0: unknown

	mu    sync.Mutex
	cur   int64
	start time.Time
	last  time.Time
	spin  int
	stop  chan struct{}
	wg    sync.WaitGroup
}

// newProgress returns a progress on w, drawing only when on. total is the
// amount of work in bytes (0 when unknown).
func newProgress(w io.Writer, on bool, label string, total int64) *progress {
	return newProgressUnit(w, on, label, total, "bytes")
}

// newProgressUnit is newProgress counting unit ("rows") instead of bytes.
func newProgressUnit(w io.Writer, on bool, label string, total int64, unit string) *progress {
	if !on {
		return nil
	}
	p := &progress{w: w, label: label, unit: unit, total: total, start: time.Now(), stop: make(chan struct{})}
	p.draw(p.start)
	p.wg.Add(1)
	go p.tick()
	return p
}

func (p *progress) tick() {
	defer p.wg.Done()
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.mu.Lock()
			if now.Sub(p.last) >= progressEvery {
				p.draw(now)
			}
			p.mu.Unlock()
		}
	}
}

// add counts n more units of work done.
func (p *progress) add(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur += n
	if now := time.Now(); now.Sub(p.last) >= progressEvery {
		p.draw(now)
	}
}

// done stops the indicator and clears its line.
func (p *progress) done() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	io.WriteString(p.w, clearLine)
}

// draw writes the line; the caller holds p.mu.
func (p *progress) draw(now time.Time) {
	p.last = now
	io.WriteString(p.w, p.line(now.Sub(p.start)))
}

// line renders the indicator after elapsed time.
func (p *progress) line(elapsed time.Duration) string {
	var sb strings.Builder
	sb.WriteString(clearLine)
	sb.WriteString(p.label)
	sb.WriteString("  ")
	if p.total > 0 {
		frac := min(float64(p.cur)/float64(p.total), 1)
		filled := int(frac * progressBarWidth)
		sb.WriteByte('[')
		sb.WriteString(strings.Repeat("=", filled))
		if filled < progressBarWidth {
			sb.WriteByte('>')
			sb.WriteString(strings.Repeat(" ", progressBarWidth-filled-1))
		}
		fmt.Fprintf(&sb, "] %3d%%  %s / %s", int(frac*100), p.amount(p.cur), p.amount(p.total))
	} else {
		const frames = `|/-\`
		sb.WriteByte(frames[p.spin%len(frames)])
		p.spin++
		if p.cur > 0 {
			sb.WriteString("  ")
			sb.WriteString(p.amount(p.cur))
		}
	}
	sb.WriteString("  ")
	sb.WriteString(elapsed.Truncate(time.Second).String())
	return sb.String()
}

func (p *progress) amount(n int64) string {
	if p.unit == "bytes" {
		return health.FormatBytes(n)
	}
	return groupDigits(n) + " " + p.unit
}

// groupDigits renders n with thousands separators: 1,234,567.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
