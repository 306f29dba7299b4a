package paimon

import (
	"container/list"
	"context"
	"sync"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// manifestCache keeps decoded manifests by file name. Manifest files are
// immutable once written, so an entry never goes stale; the cache only
// bounds how many it keeps (least recently used out). Callers must not
// modify the returned slices.
type manifestCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of string, most recent first
	items map[string]*cacheItem
}

type cacheItem struct {
	elem    *list.Element
	entries []manifest.ManifestEntry
}

func newManifestCache(max int) *manifestCache {
	return &manifestCache{max: max, order: list.New(), items: map[string]*cacheItem{}}
}

// get returns the entries of the manifest mf names, reading it (and
// checking its recorded size) on a miss.
func (c *manifestCache) get(ctx context.Context, meta *TableMeta, mf *manifest.ManifestFileMeta) ([]manifest.ManifestEntry, error) {
	name := mf.FileName
	c.mu.Lock()
	if it, ok := c.items[name]; ok {
		c.order.MoveToFront(it.elem)
		c.mu.Unlock()
		return it.entries, nil
	}
	c.mu.Unlock()
	entries, err := meta.ReadListedManifest(ctx, mf)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[name]; !ok {
		c.items[name] = &cacheItem{elem: c.order.PushFront(name), entries: entries}
		for c.order.Len() > c.max {
			last := c.order.Back()
			c.order.Remove(last)
			delete(c.items, last.Value.(string))
		}
	}
	return entries, nil
}
