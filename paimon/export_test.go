package paimon

import "context"

// SetCommitHook makes c call hook at the points of each commit attempt:
// "base" (the latest snapshot was read), "publish" (the snapshot is about
// to be created) and "verify" (it was created, not yet verified), with the
// snapshot id the attempt aims at. Tests pause commits there.
func SetCommitHook(c *TableCommit, hook func(ctx context.Context, point string, id int64)) {
	c.hook = func(ctx context.Context, p hookPoint, id int64) { hook(ctx, string(p), id) }
}

// WriterHeld is what an append writer's open files (its Budget) and its
// files being finished in the background (its Finisher) hold by the
// writer's own accounting.
func WriterHeld(w *TableWriter) int64 {
	var n int64
	if w.budget != nil {
		n += w.budget.Held()
	}
	if w.finisher != nil {
		n += w.finisher.Held()
	}
	return n
}
