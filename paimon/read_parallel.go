package paimon

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// splitBuffer is how many batches a worker may have read ahead of the
// consumer on the split the consumer is taking (in order) or per worker in
// the shared channel (unordered). Splits further ahead are bounded by the
// read-ahead byte budget instead (ScanSpec.ReadAheadBytes).
const splitBuffer = 2

// DefaultReadAheadBytes is the ReadAheadBytes of a ScanSpec that sets none,
// for a read whose splits are read without a primary-key merge: the Arrow
// buffer bytes (capacities, which is what the process holds) that the
// workers of an ordered parallel read may hold, together, in batches of
// splits the consumer has not reached yet. Without it the read was nearly
// sequential: the worker on the next split filled its two batches and
// waited while the consumer drained the current split. A worker ahead
// keeps reading until the consumer reaches its split only if the budget
// holds about one split's batches: the benchmark suite's full-scale splits
// decode to 118-131 MiB (2M rows of seven columns), and with two workers
// a 128 MiB budget makes the ordered read as fast as an unordered one,
// while 64 MiB leaves pk-dv 10-25% slower (bench/NOTES.md).
const DefaultReadAheadBytes int64 = 128 << 20

// DefaultMergeReadAheadBytes is the ReadAheadBytes of a ScanSpec that sets
// none, for a read with a split that needs a primary-key merge. Such a
// split already decodes each sorted run on a goroutine of its own
// (ScanSpec.ReadAhead), which keeps the cores busy without a look-ahead
// across splits: at full scale the suite's pk-dedup read takes the same
// time with 16 MiB as with 128 MiB, and its peak RSS falls from about
// 750 MiB to 450 MiB, within the 512 MiB a merge read is meant to stay
// under.
const DefaultMergeReadAheadBytes int64 = 16 << 20

// readItem is a batch or an error travelling from a worker to the consumer.
type readItem struct {
	rec  arrow.RecordBatch
	err  error
	size int64 // Arrow buffer capacity of rec, counted against the budget
}

// orderedBuffer holds the batches that the workers of an ordered parallel
// read have read and the consumer has not taken yet, a queue per split.
// Splits are taken in plan order: the consumer drains the queue of its
// head split, then moves to the next. A worker may queue a batch when
//   - its queue is empty (each worker always has one batch in flight, so
//     the read progresses even when one batch exceeds the budget), or
//   - its split is the head and holds fewer than splitBuffer batches (the
//     consumer is taking it now: more would not help), or
//   - its split is ahead of the head and the bytes queued stay within
//     limit (the look-ahead budget that keeps later workers busy while
//     the consumer drains an earlier split: without it, as with a fixed
//     two batches per split, the read was almost sequential).
//
// So the batches held never exceed limit plus one batch per worker and
// splitBuffer batches of the head, and no worker waits forever: the head's
// worker can always queue once its queue has room, and the consumer always
// drains the head.
type orderedBuffer struct {
	mu       sync.Mutex
	workers  sync.Cond // a queue shrank, the head moved or the read stopped
	consumer sync.Cond // a batch arrived or a split ended
	queues   []splitQueue
	head     int   // the split the consumer is taking
	held     int64 // bytes queued in all splits
	limit    int64
	failed   int  // the first split that yielded an error; len(queues) when none
	stopped  bool // the consumer stopped: workers drop what they read
}

type splitQueue struct {
	items []readItem
	ended bool
}

func newOrderedBuffer(splits int, limit int64) *orderedBuffer {
	b := &orderedBuffer{queues: make([]splitQueue, splits), limit: limit, failed: splits}
	b.workers.L = &b.mu
	b.consumer.L = &b.mu
	return b
}

// put queues it for split i, waiting for room; it owns it.rec. It returns
// whether the worker should go on reading split i.
func (b *orderedBuffer) put(i int, it readItem) bool {
	if it.rec != nil {
		it.size = batchBytes(it.rec)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	q := &b.queues[i]
	for !b.stopped && len(q.items) > 0 && !b.room(i, it.size) {
		b.workers.Wait()
	}
	if b.stopped {
		if it.rec != nil {
			it.rec.Release()
		}
		return false
	}
	q.items = append(q.items, it)
	b.held += it.size
	if it.err != nil {
		b.failed = min(b.failed, i)
		if splitFailed != nil {
			splitFailed(i)
		}
	}
	if i == b.head {
		b.consumer.Signal()
	}
	return it.err == nil
}

// splitFailed, when set (by tests, before a read starts), is called with
// the index of a split whose error an ordered read has just recorded; from
// then on no worker starts a later split.
var splitFailed func(i int)

// room reports whether split i, which holds a batch already, may queue
// one more of size bytes.
func (b *orderedBuffer) room(i int, size int64) bool {
	if i == b.head {
		return len(b.queues[i].items) < splitBuffer
	}
	return b.held+size <= b.limit
}

// end marks split i read (or abandoned).
func (b *orderedBuffer) end(i int) {
	b.mu.Lock()
	b.queues[i].ended = true
	if i == b.head {
		b.consumer.Signal()
	}
	b.mu.Unlock()
}

// skip reports whether a worker should not start split i: the consumer
// stopped, or an earlier split failed, so its batches would never be taken.
func (b *orderedBuffer) skip(i int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stopped || i > b.failed
}

// take returns the next item of the head split, waiting for it; ok is
// false when the head split has ended and is empty, and then the head
// moves to the next split.
func (b *orderedBuffer) take() (readItem, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := &b.queues[b.head]
	for len(q.items) == 0 && !q.ended {
		b.consumer.Wait()
	}
	if len(q.items) == 0 {
		b.head++
		b.workers.Broadcast() // the new head's worker may have room now
		return readItem{}, false
	}
	it := q.items[0]
	q.items[0] = readItem{}
	q.items = q.items[1:]
	b.held -= it.size
	b.workers.Broadcast()
	return it, true
}

// stop makes every worker drop what it reads and stop waiting for room.
func (b *orderedBuffer) stop() {
	b.mu.Lock()
	b.stopped = true
	b.workers.Broadcast()
	b.mu.Unlock()
}

// release frees every batch still queued; the workers must have returned.
func (b *orderedBuffer) release() {
	for i := range b.queues {
		for _, it := range b.queues[i].items {
			if it.rec != nil {
				it.rec.Release()
			}
		}
		b.queues[i].items = nil
	}
	b.held = 0
}

// readSplitsParallel reads splits with s.spec.Workers goroutines, each
// taking the next unread split, like Java's parallel readers (Flink's and
// Spark's source tasks) read one split per task. In order (the default) the
// consumer takes split after split from an orderedBuffer, whose byte budget
// (ScanSpec.ReadAheadBytes) lets the workers on later splits read ahead
// while the consumer drains an earlier one; a split after one that failed
// is not started. Unordered, batches come out of one bounded channel as
// they are read. The limit is applied here, to the batches the consumer
// takes; each worker also stops its own split at the limit.
//
// When the consumer stops, or an error ends the read, the workers are told
// to stop, waited for, and every batch they had read ahead is released:
// no goroutine outlives the call.
func (s *Scan) readSplitsParallel(ctx context.Context, st *scanState, splits []Split, workers int, yield func(arrow.RecordBatch, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers = min(workers, len(splits))
	lim := limiter{limit: s.spec.Limit}
	take := func(it readItem) bool {
		if it.err != nil {
			yield(nil, it.err)
			return false
		}
		rec, more := lim.apply(it.rec)
		if rec != nil && !yield(rec, nil) {
			return false
		}
		return more
	}
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	if !s.spec.Unordered {
		buf := newOrderedBuffer(len(splits), s.readAheadBytes(st, splits))
		worker := func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(splits) {
					return
				}
				if !buf.skip(i) {
					s.readOneSplit(ctx, st, &splits[i], func(rec arrow.RecordBatch, err error) bool {
						return buf.put(i, readItem{rec: rec, err: err})
					})
				}
				buf.end(i)
			}
		}
		wg.Add(workers)
		for range workers {
			go worker()
		}
		defer func() {
			buf.stop()
			cancel()
			wg.Wait()
			buf.release()
		}()
		for range splits {
			for {
				it, ok := buf.take()
				if !ok {
					break
				}
				if !take(it) {
					return
				}
			}
		}
		return
	}

	ch := make(chan readItem, workers*splitBuffer)
	done := make(chan struct{})
	worker := func() {
		defer wg.Done()
		for {
			i := int(next.Add(1) - 1)
			if i >= len(splits) {
				return
			}
			select {
			case <-done:
				return
			default:
			}
			s.readOneSplit(ctx, st, &splits[i], func(rec arrow.RecordBatch, err error) bool {
				select {
				case ch <- readItem{rec: rec, err: err}:
					return err == nil
				case <-done:
					if rec != nil {
						rec.Release()
					}
					return false
				}
			})
		}
	}
	wg.Add(workers)
	for range workers {
		go worker()
	}
	// The channel closes once every worker is done.
	go func() {
		wg.Wait()
		close(ch)
	}()
	for it := range ch {
		if !take(it) {
			close(done)
			cancel()
			for it := range ch { // closed by the goroutine above
				if it.rec != nil {
					it.rec.Release()
				}
			}
			return
		}
	}
}

// readAheadBytes is the byte budget of an ordered parallel read of splits
// (ScanSpec.ReadAheadBytes): the default is smaller when a split merges
// sorted runs that decode ahead on goroutines of their own.
func (s *Scan) readAheadBytes(st *scanState, splits []Split) int64 {
	switch n := s.spec.ReadAheadBytes; {
	case n < 0:
		return 0
	case n > 0:
		return n
	}
	if s.spec.ReadAhead >= 0 {
		for i := range splits {
			if st.merges(&splits[i]) {
				return DefaultMergeReadAheadBytes
			}
		}
	}
	return DefaultReadAheadBytes
}

// workers is how many goroutines read n splits (ScanSpec.Workers); 0 means
// on the consumer's goroutine. The default reads in parallel when it can
// gain: a user who writes the obvious loop over Records gets the cores the
// machine has (on two cores a full scan of an append table takes about
// half the time), in plan order, so the rows come out as they would
// sequentially.
func (s *Scan) workers(n int) int {
	switch w := s.spec.Workers; {
	case n == 0 || w < 0:
		return 0
	case w > 0:
		return w
	case s.spec.Limit > 0 || n < 2:
		return 0
	default:
		return min(runtime.GOMAXPROCS(0), n)
	}
}

// readOneSplit reads one split with a splitReader of its own, turning a
// panic into an error: a worker goroutine must not take the process down.
func (s *Scan) readOneSplit(ctx context.Context, st *scanState, sp *Split, yield func(arrow.RecordBatch, error) bool) {
	defer func() {
		if p := recover(); p != nil {
			yield(nil, fmt.Errorf("paimon: reading split of bucket %d panicked: %v", sp.Bucket, p))
		}
	}()
	r := &splitReader{scan: s, st: st, mem: s.allocator(), remaining: s.spec.Limit}
	r.readSplit(ctx, sp, yield)
}

// limiter applies a scan's row limit to the batches a consumer takes.
type limiter struct {
	limit int64 // 0: none
	taken int64
}

// apply returns rec, or its head when it crosses the limit (nil when the
// limit was already reached), and whether more batches may follow. It owns
// rec.
func (l *limiter) apply(rec arrow.RecordBatch) (arrow.RecordBatch, bool) {
	if rec.NumRows() == 0 {
		rec.Release()
		return nil, true
	}
	if l.limit == 0 {
		return rec, true
	}
	left := l.limit - l.taken
	if rec.NumRows() < left {
		l.taken += rec.NumRows()
		return rec, true
	}
	out := rec.NewSlice(0, left)
	rec.Release()
	l.taken = l.limit
	return out, false
}

// batchBytes is the capacity of rec's Arrow buffers, each counted once
// (slices of one batch share buffers). Capacities, not lengths: a builder
// grows its buffers by doubling, and the memory held is the capacity. arrow/util.TotalRecordSize does the same but
// would link protobuf reflection into the table core.
func batchBytes(rec arrow.RecordBatch) int64 {
	seen := map[*memory.Buffer]struct{}{}
	var n int64
	var add func(d arrow.ArrayData)
	add = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b == nil {
				continue
			}
			if _, ok := seen[b]; !ok {
				seen[b] = struct{}{}
				n += int64(b.Cap())
			}
		}
		for _, c := range d.Children() {
			add(c)
		}
		if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
			add(dict)
		}
	}
	for _, c := range rec.Columns() {
		add(c.Data())
	}
	return n
}
