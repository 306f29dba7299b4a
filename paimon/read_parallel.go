package paimon

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// splitBuffer is how many batches a worker may have read ahead of the
// consumer per split, the bound on a parallel read's memory beyond the
// batches being decoded: Workers × (splitBuffer + 1) batches.
const splitBuffer = 2

// readItem is a batch or an error travelling from a worker to the consumer.
type readItem struct {
	rec arrow.RecordBatch
	err error
}

// readSplitsParallel reads splits with s.spec.Workers goroutines, each
// taking the next unread split, like Java's parallel readers (Flink's and
// Spark's source tasks) read one split per task. In order (the default) the
// consumer takes split after split, each from its own bounded channel; a
// worker blocks when its split's channel is full, so at most Workers splits
// are in flight. Unordered, batches come out of one channel as they are
// read. The limit is applied here, to the batches the consumer takes; each
// worker also stops its own split at the limit.
//
// When the consumer stops, or an error ends the read, the workers are told
// to stop, waited for, and every batch they had read ahead is released:
// no goroutine outlives the call.
func (s *Scan) readSplitsParallel(ctx context.Context, st *scanState, splits []Split, workers int, yield func(arrow.RecordBatch, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers = min(workers, len(splits))
	ordered := !s.spec.Unordered
	var chans []chan readItem
	if ordered {
		chans = make([]chan readItem, len(splits))
		for i := range chans {
			chans[i] = make(chan readItem, splitBuffer)
		}
	} else {
		chans = []chan readItem{make(chan readItem, workers*splitBuffer)}
	}
	done := make(chan struct{})
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	send := func(ch chan readItem, it readItem) bool {
		select {
		case ch <- it:
			return it.err == nil
		case <-done:
			if it.rec != nil {
				it.rec.Release()
			}
			return false
		}
	}
	worker := func() {
		defer wg.Done()
		for {
			i := int(next.Add(1) - 1)
			if i >= len(splits) {
				return
			}
			select {
			case <-done:
				if ordered {
					close(chans[i])
				}
				continue // close the channels of the splits left
			default:
			}
			ch := chans[0]
			if ordered {
				ch = chans[i]
			}
			s.readOneSplit(ctx, st, &splits[i], func(rec arrow.RecordBatch, err error) bool {
				return send(ch, readItem{rec, err})
			})
			if ordered {
				close(ch)
			}
		}
	}
	wg.Add(workers)
	for range workers {
		go worker()
	}
	stop := func() {
		close(done)
		cancel()
		wg.Wait()
		for _, ch := range chans {
			for {
				it, ok := tryReceive(ch)
				if !ok {
					break
				}
				if it.rec != nil {
					it.rec.Release()
				}
			}
		}
	}
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
	if ordered {
		for _, ch := range chans {
			for it := range ch {
				if !take(it) {
					stop()
					return
				}
			}
		}
		stop()
		return
	}
	// Unordered: the channel closes once every worker is done.
	go func() {
		wg.Wait()
		close(chans[0])
	}()
	for it := range chans[0] {
		if !take(it) {
			close(done)
			cancel()
			for it := range chans[0] { // closed by the goroutine above
				if it.rec != nil {
					it.rec.Release()
				}
			}
			return
		}
	}
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

// tryReceive takes an item from ch without blocking; ok is false when ch is
// empty or closed.
func tryReceive(ch chan readItem) (readItem, bool) {
	select {
	case it, ok := <-ch:
		return it, ok
	default:
		return readItem{}, false
	}
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
