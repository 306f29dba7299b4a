package datafile

import (
	"sync"
	"time"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// Finisher finishes data files in the background for the Writers sharing
// it: closing a Parquet file compresses the data pages buffered while
// dictionary encoding was on and writes the row group and footer, a
// quarter of the CPU a write spends (issue 23's profile), and until now
// the writer waited for it at every roll, every file a Budget finished
// early and every PrepareCommit. With a Finisher the Writer hands the file
// over and goes on with the next rows while it is finished.
//
// Memory: a file being finished keeps what it held when it was handed
// over (its compressed pages). The Finisher takes a file only while fewer
// than its slots are being finished and their held bytes stay within its
// limit (one file is always taken when none is in progress); otherwise
// the Writer finishes the file itself, as without a Finisher. So a table
// writer holds at most its Budget in open files plus the Finisher's limit
// in files being finished.
type Finisher struct {
	mu    sync.Mutex
	slots int
	limit int64 // <= 0: no byte limit
	busy  int
	held  int64
}

// NewFinisher returns a Finisher running at most slots finishes at once,
// holding at most limit bytes between them (0 or less: no byte limit).
// It returns nil, meaning "finish on the caller's goroutine", when slots
// is less than 1.
func NewFinisher(slots int, limit int64) *Finisher {
	if slots < 1 {
		return nil
	}
	return &Finisher{slots: slots, limit: limit}
}

// tryStart reserves a slot for a file holding held bytes.
func (f *Finisher) tryStart(held int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy >= f.slots || (f.limit > 0 && f.busy > 0 && f.held+held > f.limit) {
		return false
	}
	f.busy++
	f.held += held
	return true
}

func (f *Finisher) end(held int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.busy--
	f.held -= held
}

// Held is the bytes the files being finished held when handed over.
func (f *Finisher) Held() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.held
}

// pendingFile is a file of a Writer being finished in the background.
type pendingFile struct {
	slot int // index into Writer.metas
	done chan struct{}
	meta manifest.DataFileMeta
	err  error
}

// finishAsync hands f to the Finisher when it has room and reports
// whether it did. The file's metadata lands in w.metas[slot] when the
// Writer collects it.
func (w *Writer) finishAsync(f *dataFile, created time.Time) bool {
	fin := w.opts.Finisher
	if fin == nil {
		return false
	}
	held := f.memory()
	if !fin.tryStart(held) {
		return false
	}
	p := &pendingFile{slot: len(w.metas), done: make(chan struct{})}
	w.metas = append(w.metas, manifest.DataFileMeta{})
	w.pending = append(w.pending, p)
	go func() {
		defer close(p.done)
		defer fin.end(held)
		p.meta, p.err = f.finish(w, created)
	}()
	return true
}

// collect moves the metadata of finished background files into w.metas,
// waiting for all of them when wait is set, and returns the first error
// among those collected (the others are dropped with it: the Writer fails).
func (w *Writer) collect(wait bool) error {
	var first error
	keep := w.pending[:0]
	for _, p := range w.pending {
		if !wait {
			select {
			case <-p.done:
			default:
				keep = append(keep, p)
				continue
			}
		}
		<-p.done
		if p.err != nil {
			first = cmpFirst(first, p.err)
			continue
		}
		w.metas[p.slot] = p.meta
	}
	clear(w.pending[len(keep):])
	w.pending = keep
	return first
}

func cmpFirst(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
