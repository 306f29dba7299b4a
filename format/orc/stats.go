package orc

// ColumnStatistics is one column's statistics message of an ORC file (the
// file footer's, a stripe's, or a row group's): orc_proto.proto
// ColumnStatistics. At most one of the typed parts is set, by the column's
// type. Pointers and Has flags keep "absent" apart from zero, as the Java
// readers do (ColumnStatisticsImpl.deserialize).
type ColumnStatistics struct {
	NumberOfValues uint64
	// HasNull is true when the message says so or does not say (writers
	// before Hive 1.1 did not record it; Java assumes nulls then).
	HasNull     bool
	BytesOnDisk uint64

	Int        *IntegerStatistics
	Double     *DoubleStatistics
	String     *StringStatistics
	Bucket     *BucketStatistics
	Decimal    *DecimalStatistics
	Date       *DateStatistics
	Binary     *BinaryStatistics
	Timestamp  *TimestampStatistics
	Collection *CollectionStatistics
}

// IntegerStatistics covers tinyint, smallint, int and bigint columns.
type IntegerStatistics struct {
	HasMinimum, HasMaximum, HasSum bool
	Minimum, Maximum, Sum          int64
}

// DoubleStatistics covers float and double columns.
type DoubleStatistics struct {
	HasMinimum, HasMaximum, HasSum bool
	Minimum, Maximum, Sum          float64
}

// StringStatistics covers string, char and varchar columns. Values longer
// than 1024 bytes are recorded as LowerBound/UpperBound (truncated) instead
// of Minimum/Maximum (ORC-203).
type StringStatistics struct {
	HasMinimum, HasMaximum, HasSum bool
	Minimum, Maximum               string
	Sum                            int64
	HasLowerBound, HasUpperBound   bool
	LowerBound, UpperBound         string
}

// BucketStatistics covers boolean columns: Count[0] is the number of true
// values.
type BucketStatistics struct {
	Count []uint64
}

// DecimalStatistics covers decimal columns, as decimal strings.
type DecimalStatistics struct {
	HasMinimum, HasMaximum, HasSum bool
	Minimum, Maximum, Sum          string
}

// DateStatistics covers date columns, in days since 1970-01-01.
type DateStatistics struct {
	HasMinimum, HasMaximum bool
	Minimum, Maximum       int32
}

// BinaryStatistics covers binary columns: the total length.
type BinaryStatistics struct {
	HasSum bool
	Sum    int64
}

// TimestampStatistics covers timestamp columns. MinimumUTC/MaximumUTC are
// milliseconds since the epoch (ORC-135); Minimum/Maximum are the pre-ORC-135
// local-time values. MinimumNanos/MaximumNanos, when present, hold the
// nanoseconds below the millisecond plus one.
type TimestampStatistics struct {
	HasMinimum, HasMaximum, HasMinimumUTC, HasMaximumUTC bool
	Minimum, Maximum, MinimumUTC, MaximumUTC             int64
	HasMinimumNanos, HasMaximumNanos                     bool
	MinimumNanos, MaximumNanos                           int32
}

// CollectionStatistics covers list and map columns.
type CollectionStatistics struct {
	HasMinChildren, HasMaxChildren, HasTotalChildren bool
	MinChildren, MaxChildren, TotalChildren          uint64
}

func decodeColumnStatistics(p *pbReader, w int) ColumnStatistics {
	cs := ColumnStatistics{HasNull: true}
	s := p.sub(w)
	for {
		f, w, ok := s.next()
		if !ok {
			break
		}
		switch f {
		case 1:
			cs.NumberOfValues = s.uint(w)
		case 2:
			v := &IntegerStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					v.Minimum, v.HasMinimum = m.sint(w), true
				case 2:
					v.Maximum, v.HasMaximum = m.sint(w), true
				case 3:
					v.Sum, v.HasSum = m.sint(w), true
				default:
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.Int = v
		case 3:
			v := &DoubleStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					v.Minimum, v.HasMinimum = m.double(w), true
				case 2:
					v.Maximum, v.HasMaximum = m.double(w), true
				case 3:
					v.Sum, v.HasSum = m.double(w), true
				default:
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.Double = v
		case 4:
			v := &StringStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					v.Minimum, v.HasMinimum = string(m.str(w)), true
				case 2:
					v.Maximum, v.HasMaximum = string(m.str(w)), true
				case 3:
					v.Sum, v.HasSum = m.sint(w), true
				case 4:
					v.LowerBound, v.HasLowerBound = string(m.str(w)), true
				case 5:
					v.UpperBound, v.HasUpperBound = string(m.str(w)), true
				default:
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.String = v
		case 5:
			v := &BucketStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				if f == 1 {
					v.Count = m.uints(w, v.Count)
				} else {
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.Bucket = v
		case 6:
			v := &DecimalStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					v.Minimum, v.HasMinimum = string(m.str(w)), true
				case 2:
					v.Maximum, v.HasMaximum = string(m.str(w)), true
				case 3:
					v.Sum, v.HasSum = string(m.str(w)), true
				default:
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.Decimal = v
		case 7:
			v := &DateStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					v.Minimum, v.HasMinimum = int32(m.sint(w)), true
				case 2:
					v.Maximum, v.HasMaximum = int32(m.sint(w)), true
				default:
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.Date = v
		case 8:
			v := &BinaryStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				if f == 1 {
					v.Sum, v.HasSum = m.sint(w), true
				} else {
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.Binary = v
		case 9:
			v := &TimestampStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					v.Minimum, v.HasMinimum = m.sint(w), true
				case 2:
					v.Maximum, v.HasMaximum = m.sint(w), true
				case 3:
					v.MinimumUTC, v.HasMinimumUTC = m.sint(w), true
				case 4:
					v.MaximumUTC, v.HasMaximumUTC = m.sint(w), true
				case 5:
					v.MinimumNanos, v.HasMinimumNanos = int32(m.uint(w)), true
				case 6:
					v.MaximumNanos, v.HasMaximumNanos = int32(m.uint(w)), true
				default:
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.Timestamp = v
		case 10:
			cs.HasNull = s.uint(w) != 0
		case 11:
			cs.BytesOnDisk = s.uint(w)
		case 12:
			v := &CollectionStatistics{}
			m := s.sub(w)
			for {
				f, w, ok := m.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					v.MinChildren, v.HasMinChildren = m.uint(w), true
				case 2:
					v.MaxChildren, v.HasMaxChildren = m.uint(w), true
				case 3:
					v.TotalChildren, v.HasTotalChildren = m.uint(w), true
				default:
					m.skip(w)
				}
			}
			s.adopt(&m)
			cs.Collection = v
		default:
			s.skip(w)
		}
	}
	p.adopt(&s)
	return cs
}

// adopt carries a sub-reader's error into its parent.
func (p *pbReader) adopt(sub *pbReader) {
	if sub.err != nil && p.err == nil {
		p.err = sub.err
		p.b = nil
	}
}

// encode writes the message's fields in field-number order, the order
// protobuf-java serialises them in.
func (cs *ColumnStatistics) encode(w *pbWriter) {
	w.uint(1, cs.NumberOfValues)
	if v := cs.Int; v != nil {
		w.message(2, func(w *pbWriter) {
			if v.HasMinimum {
				w.sint(1, v.Minimum)
			}
			if v.HasMaximum {
				w.sint(2, v.Maximum)
			}
			if v.HasSum {
				w.sint(3, v.Sum)
			}
		})
	}
	if v := cs.Double; v != nil {
		w.message(3, func(w *pbWriter) {
			if v.HasMinimum {
				w.double(1, v.Minimum)
			}
			if v.HasMaximum {
				w.double(2, v.Maximum)
			}
			if v.HasSum {
				w.double(3, v.Sum)
			}
		})
	}
	if v := cs.String; v != nil {
		w.message(4, func(w *pbWriter) {
			if v.HasMinimum {
				w.str(1, v.Minimum)
			}
			if v.HasMaximum {
				w.str(2, v.Maximum)
			}
			if v.HasSum {
				w.sint(3, v.Sum)
			}
			if v.HasLowerBound {
				w.str(4, v.LowerBound)
			}
			if v.HasUpperBound {
				w.str(5, v.UpperBound)
			}
		})
	}
	if v := cs.Bucket; v != nil {
		w.message(5, func(w *pbWriter) { w.packed(1, v.Count) })
	}
	if v := cs.Decimal; v != nil {
		w.message(6, func(w *pbWriter) {
			if v.HasMinimum {
				w.str(1, v.Minimum)
			}
			if v.HasMaximum {
				w.str(2, v.Maximum)
			}
			if v.HasSum {
				w.str(3, v.Sum)
			}
		})
	}
	if v := cs.Date; v != nil {
		w.message(7, func(w *pbWriter) {
			if v.HasMinimum {
				w.sint(1, int64(v.Minimum))
			}
			if v.HasMaximum {
				w.sint(2, int64(v.Maximum))
			}
		})
	}
	if v := cs.Binary; v != nil {
		w.message(8, func(w *pbWriter) {
			if v.HasSum {
				w.sint(1, v.Sum)
			}
		})
	}
	if v := cs.Timestamp; v != nil {
		w.message(9, func(w *pbWriter) {
			if v.HasMinimum {
				w.sint(1, v.Minimum)
			}
			if v.HasMaximum {
				w.sint(2, v.Maximum)
			}
			if v.HasMinimumUTC {
				w.sint(3, v.MinimumUTC)
			}
			if v.HasMaximumUTC {
				w.sint(4, v.MaximumUTC)
			}
			if v.HasMinimumNanos {
				w.uint(5, uint64(v.MinimumNanos))
			}
			if v.HasMaximumNanos {
				w.uint(6, uint64(v.MaximumNanos))
			}
		})
	}
	w.boolean(10, cs.HasNull)
	if cs.BytesOnDisk != 0 {
		w.uint(11, cs.BytesOnDisk)
	}
	if v := cs.Collection; v != nil {
		w.message(12, func(w *pbWriter) {
			if v.HasMinChildren {
				w.uint(1, v.MinChildren)
			}
			if v.HasMaxChildren {
				w.uint(2, v.MaxChildren)
			}
			if v.HasTotalChildren {
				w.uint(3, v.TotalChildren)
			}
		})
	}
}
