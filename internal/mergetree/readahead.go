package mergetree

import (
	"fmt"
	"iter"
	"sync"
)

// readAhead runs seq on a goroutine of its own, at most depth items ahead
// of the consumer, so that the Parquet decoding of a sorted run's next
// batches overlaps the merging of its current ones. A merge spends about as
// long decoding its runs as comparing and copying their rows; done in turn
// on one goroutine (as iter.Pull does, and as Java's single reader thread
// does) the two add up, done side by side on two cores they overlap.
//
// next returns the items in order and false after the last; stop ends the
// producer (its iterator sees yield return false) and releases the batches
// decoded but not taken. stop must be called, once next has been or not; it
// waits for the producer goroutine to end, so no goroutine outlives the
// cursor. A panic in seq is turned into an error item: a producer goroutine
// must not take the process down where iter.Pull would have re-panicked in
// the consumer.
func readAhead(seq iter.Seq[runItem], depth int) (next func() (runItem, bool), stop func()) {
	items := make(chan runItem, depth)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(items)
		defer func() {
			if p := recover(); p != nil {
				select {
				case items <- runItem{err: fmt.Errorf("%w: reading a sorted run panicked: %v", ErrCorrupt, p)}:
				case <-done:
				}
			}
		}()
		for it := range seq {
			select {
			case items <- it:
			case <-done:
				if it.rec != nil {
					it.rec.Release()
				}
				return
			}
		}
	}()
	next = func() (runItem, bool) {
		it, ok := <-items
		return it, ok
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			close(done)
			for it := range items {
				if it.rec != nil {
					it.rec.Release()
				}
			}
			wg.Wait()
		})
	}
	return next, stop
}
