package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
)

// event is one change in Debezium's envelope.
type event struct {
	Op     string    `json:"op"`
	Before *customer `json:"before,omitempty"`
	After  *customer `json:"after,omitempty"`
}

// customer is a row of the table; nil fields are NULL.
type customer struct {
	ID      int64   `json:"id"`
	Name    *string `json:"name"`
	Email   *string `json:"email"`
	Balance *int64  `json:"balance"`
}

// change is a row of the table with its row kind.
type change struct {
	kind string // +I, -U, +U, -D
	row  customer
}

// changes turns an event into the table's rows (Flink's Debezium format
// does the same): c and r insert, u retracts the old row and adds the new
// one, d deletes.
func (e *event) changes(offset int64) ([]change, error) {
	bad := func(what string) error { return fmt.Errorf("event at offset %d: op %q %s", offset, e.Op, what) }
	switch e.Op {
	case "c", "r":
		if e.After == nil {
			return nil, bad("has no after")
		}
		return []change{{"+I", *e.After}}, nil
	case "u":
		if e.Before == nil || e.After == nil {
			return nil, bad("needs before and after")
		}
		if e.Before.ID != e.After.ID {
			return nil, bad("changes the key")
		}
		return []change{{"-U", *e.Before}, {"+U", *e.After}}, nil
	case "d":
		if e.Before == nil {
			return nil, bad("has no before")
		}
		return []change{{"-D", *e.Before}}, nil
	}
	return nil, bad("is not one of c, r, u, d")
}

// eventReader reads events from a JSON lines file, skipping to an offset.
type eventReader struct {
	sc     *bufio.Scanner
	offset int64 // of the next event
}

func openEvents(r io.Reader, from int64) (*eventReader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	er := &eventReader{sc: sc}
	for er.offset < from {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("the events end at offset %d, before the checkpoint's %d", er.offset, from)
		}
		er.offset++
	}
	return er, nil
}

// next returns the next event, or nil at the end.
func (er *eventReader) next() (*event, error) {
	if !er.sc.Scan() {
		return nil, er.sc.Err()
	}
	var e event
	if err := json.Unmarshal(er.sc.Bytes(), &e); err != nil {
		return nil, fmt.Errorf("event at offset %d: %w", er.offset, err)
	}
	er.offset++
	return &e, nil
}

// generate appends n random events to path: creates, updates and deletes
// of customers 1..n/4, consistent with each other (an update's before is
// the current row; deletes and updates only of live customers).
func generate(path string, n int, seed uint64) error {
	live := map[int64]customer{}
	existing, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var lines int
	for _, l := range splitLines(existing) {
		var e event
		if err := json.Unmarshal(l, &e); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if e.After != nil {
			live[e.After.ID] = *e.After
		} else if e.Before != nil {
			delete(live, e.Before.ID)
		}
		lines++
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	r := rand.New(rand.NewPCG(seed, uint64(lines)))
	enc := json.NewEncoder(f)
	str := func(s string) *string { return &s }
	keys := int64(max(n/4, 4))
	for range n {
		id := 1 + r.Int64N(keys)
		cur, ok := live[id]
		var e event
		switch {
		case !ok:
			bal := r.Int64N(1000)
			c := customer{ID: id, Name: str(fmt.Sprintf("customer-%d", id)), Balance: &bal}
			if r.IntN(3) > 0 {
				c.Email = str(fmt.Sprintf("c%d@example.com", id))
			}
			e = event{Op: "c", After: &c}
		case r.IntN(5) == 0:
			e = event{Op: "d", Before: &cur}
		default:
			next := cur
			bal := *cur.Balance + r.Int64N(200) - 100
			next.Balance = &bal
			if r.IntN(4) == 0 {
				next.Email = str(fmt.Sprintf("c%d.%d@example.com", id, r.IntN(100)))
			}
			e = event{Op: "u", Before: &cur, After: &next}
		}
		if e.After != nil {
			live[id] = *e.After
		} else {
			delete(live, id)
		}
		if err := enc.Encode(&e); err != nil {
			return err
		}
	}
	return f.Close()
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		if i > 0 {
			out = append(out, b[:i])
		}
		if i < len(b) {
			i++
		}
		b = b[i:]
	}
	return out
}
