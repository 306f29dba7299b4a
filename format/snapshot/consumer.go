package snapshot

import "fmt"

// Consumer is the content of a consumer/consumer-<id> file; it mirrors Java
// org.apache.paimon.consumer.Consumer. Snapshots with an id at or above the
// smallest NextSnapshot of all consumers are kept by expiration.
type Consumer struct {
	// NextSnapshot is the id of the next snapshot the consumer will read.
	NextSnapshot int64
}

// DecodeConsumer parses the JSON of a consumer file. A missing or null
// nextSnapshot decodes as 0, as Jackson fills the primitive long; other
// members are ignored.
func DecodeConsumer(data []byte) (Consumer, error) {
	members, err := readObject(data)
	if err != nil {
		return Consumer{}, fmt.Errorf("%w: consumer: %v", ErrCorrupt, err)
	}
	var c Consumer
	for _, m := range members {
		if m.name != "nextSnapshot" {
			continue
		}
		if c.NextSnapshot, _, err = parseInt64(m.value); err != nil {
			return Consumer{}, fmt.Errorf("%w: consumer member %q: %v", ErrCorrupt, m.name, err)
		}
	}
	return c, nil
}

// Encode returns the JSON Java writes for c (Consumer.toJson), for example
//
//	{
//	  "nextSnapshot" : 5
//	}
func (c Consumer) Encode() []byte {
	w := newPrettyWriter()
	w.BeginObject()
	w.int64Field("nextSnapshot", c.NextSnapshot)
	w.EndObject()
	return w.Bytes()
}
