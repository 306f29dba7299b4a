package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"text/tabwriter"
)

// coordinate plans the job's scan once, ships the encoded splits to the
// workers through a channel (a stand-in for a queue or RPC), merges what
// they count and checks the merged counts against a scan in this process.
func coordinate(ctx context.Context, j job, workers int, w io.Writer) error {
	cat, tbl, err := j.open(ctx)
	if err != nil {
		return err
	}
	defer cat.Close()
	if j.By == "" && len(tbl.PartitionKeys()) > 0 {
		j.By = tbl.PartitionKeys()[0]
	}
	scan, err := j.scan(tbl)
	if err != nil {
		return err
	}

	// Plan once: this reads the snapshot and manifests, never a data file.
	plan, err := scan.Plan(ctx)
	if err != nil {
		return err
	}
	encoded := make([][]byte, len(plan.Splits))
	size := 0
	for i := range plan.Splits {
		if encoded[i], err = plan.Splits[i].MarshalBinary(); err != nil {
			return err
		}
		size += len(encoded[i])
	}
	st := plan.Stats
	skipped := st.FilesPrunedByPartition + st.FilesPrunedByBucket + st.FilesPrunedByStats
	fmt.Fprintf(w, "planned %s at snapshot %d: %d splits over %d data files holding %d rows (%d files skipped by the filter)\n",
		j.Table, plan.SnapshotID, len(plan.Splits), st.Files-skipped, st.RowCount, skipped)
	fmt.Fprintf(w, "encoded the splits with MarshalBinary: %d bytes in all; %d workers read them\n", size, workers)

	results, err := dispatch(ctx, j, workers, encoded)
	if err != nil {
		return err
	}
	merged := map[string]int64{}
	var total int64
	for _, r := range results {
		fmt.Fprintf(w, "  worker %d: %s, %s\n", r.Worker, plural(int64(r.Splits), "split"), plural(r.Rows, "row"))
		for k, n := range r.Counts {
			merged[k] += n
		}
		total += r.Rows
	}

	// Check the distributed answer against a plain scan here.
	local := map[string]int64{}
	for rec, err := range scan.Records(ctx) {
		if err != nil {
			return err
		}
		count(local, rec, j.By != "")
		rec.Release()
	}
	if !maps.Equal(merged, local) {
		return fmt.Errorf("the workers counted %v, a local scan %v", merged, local)
	}

	if j.By != "" {
		fmt.Fprintf(w, "rows per %s, merged from the workers:\n", j.By)
		out := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, k := range slices.Sorted(maps.Keys(merged)) {
			fmt.Fprintf(out, "  %s\t%d\n", k, merged[k])
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "total: %s, the same as a single scan in one process\n", plural(total, "row"))
	if total != st.RowCount {
		fmt.Fprintf(w, "(the files hold %s: the others were filtered out, or merged away by primary key)\n", plural(st.RowCount, "row"))
	}
	return nil
}

// plural returns "1 row" or "2 rows".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// dispatch starts the workers, feeds them the encoded splits and returns
// their results in worker order. The first error cancels the others.
func dispatch(ctx context.Context, j job, workers int, encoded [][]byte) ([]result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := make(chan []byte)
	results := make([]result, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = work(ctx, i, j, queue)
			if errs[i] != nil {
				cancel()
				for range queue { // let the feeder finish
				}
			}
		}()
	}
feed:
	for _, b := range encoded {
		select {
		case queue <- b:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, ctx.Err()
}
