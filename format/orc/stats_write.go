package orc

import (
	"bytes"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"
)

// statsAcc accumulates the statistics of one column as Java's
// ColumnStatisticsImpl subclasses do (update per value, merge row groups
// into the stripe and stripes into the file, serialize), so that files
// written here carry the statistics Java's writer would record: Java
// readers prune with them, and Paimon's manifest statistics for ORC files
// are derived from them (Java OrcSimpleStatsExtractor).
type statsAcc struct {
	kind    typeKind
	dec64   bool // decimal of precision <= 18 (Decimal64StatisticsImpl)
	scale   int
	count   uint64
	hasNull bool

	// integers, decimal64, dates (in iMin/iMax), collections (children)
	hasMin   bool
	iMin     int64
	iMax     int64
	iSum     int64
	overflow bool // integer sum overflowed (decimal64: !hasSum)

	dMin, dMax, dSum float64

	sMin, sMax         []byte
	lowerSet, upperSet bool
	sSum               int64

	trues uint64

	bMin, bMax, bSum *big.Int // decimals above 18 digits (unscaled)
	bSumOK           bool

	tMin, tMax           int64 // timestamps: UTC millis
	tMinNanos, tMaxNanos int32

	bytesOnDisk uint64 // stripe and file statistics: the column's stream bytes
}

const (
	maxStringRecorded = 1024 // StringStatisticsImpl.MAX_BYTES_RECORDED
	maxDecimal64      = 999_999_999_999_999_999
)

func newStatsAcc(t *orcType) *statsAcc {
	s := &statsAcc{kind: t.kind}
	if t.kind == kindDecimal {
		s.dec64 = t.precision <= 18
		s.scale = int(t.scale)
	}
	s.reset()
	return s
}

func (s *statsAcc) reset() {
	*s = statsAcc{kind: s.kind, dec64: s.dec64, scale: s.scale}
	switch s.kind {
	case kindDate:
		s.iMin, s.iMax = math.MaxInt32, math.MinInt32
	case kindList, kindMap:
		s.iMin, s.iMax = math.MaxInt64, 0
	case kindDecimal:
		s.iMin, s.iMax = math.MaxInt64, math.MinInt64
		s.bSumOK = true
		s.bSum = new(big.Int)
	case kindTimestamp, kindTimestampInstant:
		s.tMin, s.tMax = math.MaxInt64, math.MinInt64
		s.tMinNanos, s.tMaxNanos = 0, 999_999
	}
}

// increment counts present values; setNull records a null.
func (s *statsAcc) increment(n int) { s.count += uint64(n) }
func (s *statsAcc) setNull()        { s.hasNull = true }

func (s *statsAcc) updateInt(v int64) {
	if !s.hasMin {
		s.hasMin, s.iMin, s.iMax = true, v, v
	} else if v < s.iMin {
		s.iMin = v
	} else if v > s.iMax {
		s.iMax = v
	}
	if !s.overflow {
		sum := s.iSum + v
		if (v > 0 && sum < s.iSum) || (v < 0 && sum > s.iSum) {
			s.overflow = true
		} else {
			s.iSum = sum
		}
	}
}

func (s *statsAcc) updateDouble(v float64) {
	if !s.hasMin {
		s.hasMin, s.dMin, s.dMax = true, v, v
	} else if v < s.dMin {
		s.dMin = v
	} else if v > s.dMax {
		s.dMax = v
	}
	s.dSum += v
}

func (s *statsAcc) updateBool(v bool) {
	if v {
		s.trues++
	}
}

func (s *statsAcc) updateDate(v int32) {
	s.iMin = min(s.iMin, int64(v))
	s.iMax = max(s.iMax, int64(v))
}

func (s *statsAcc) updateBinary(n int) { s.sSum += int64(n) }

func (s *statsAcc) updateCollection(n int64) {
	s.iMin = min(s.iMin, n)
	s.iMax = max(s.iMax, n)
	s.iSum += n
}

// updateString mirrors StringStatisticsImpl.updateString, including its
// else-if chain and the truncated bounds of values above 1024 bytes.
func (s *statsAcc) updateString(v []byte) {
	switch {
	case s.sMin == nil:
		if len(v) > maxStringRecorded {
			s.sMin, s.sMax = truncateLower(v), truncateUpper(v)
			s.lowerSet, s.upperSet = true, true
		} else {
			c := append([]byte{}, v...)
			s.sMin, s.sMax = c, c
			s.lowerSet, s.upperSet = false, false
		}
	case bytes.Compare(s.sMin, v) > 0:
		if len(v) > maxStringRecorded {
			s.sMin, s.lowerSet = truncateLower(v), true
		} else {
			s.sMin, s.lowerSet = append([]byte{}, v...), false
		}
	case bytes.Compare(s.sMax, v) < 0:
		if len(v) > maxStringRecorded {
			s.sMax, s.upperSet = truncateUpper(v), true
		} else {
			s.sMax, s.upperSet = append([]byte{}, v...), false
		}
	}
	s.sSum += int64(len(v))
}

// lastCharStart returns the start of the last character in b[:end] (Java
// Utf8Utils.findLastCharacter).
func lastCharStart(b []byte, end int) int {
	p := end - 1
	for p > 0 && b[p]&0xc0 == 0x80 {
		p--
	}
	return p
}

// truncateLower cuts a value above 1024 bytes at a character boundary
// within the first 1024 bytes (StringStatisticsImpl.truncateLowerBound).
func truncateLower(v []byte) []byte {
	last := lastCharStart(v, maxStringRecorded+1)
	return append([]byte{}, v[:last]...)
}

// truncateUpper cuts like truncateLower and increments the last kept code
// point (StringStatisticsImpl.truncateUpperBound).
func truncateUpper(v []byte) []byte {
	following := lastCharStart(v, maxStringRecorded+1)
	last := lastCharStart(v, following)
	out := append([]byte{}, v[:last]...)
	return appendCodePoint(out, codePoint(v[last:following])+1)
}

// codePoint decodes a UTF-8 sequence the way Java's Utf8Utils.getCodePoint
// does: from the lead byte's length, without validation.
func codePoint(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	switch n := len(b); {
	case n == 1:
		return int(b[0])
	case n == 2:
		return int(b[0]&0x1f)<<6 | int(b[1]&0x3f)
	case n == 3:
		return int(b[0]&0x0f)<<12 | int(b[1]&0x3f)<<6 | int(b[2]&0x3f)
	default:
		return int(b[0]&0x07)<<18 | int(b[1]&0x3f)<<12 | int(b[2]&0x3f)<<6 | int(b[3]&0x3f)
	}
}

// appendCodePoint encodes like StringStatisticsImpl.appendCodePoint
// (including its boundaries: 0x7f takes two bytes, 0xffff four).
func appendCodePoint(out []byte, cp int) []byte {
	switch {
	case cp < 0x7f:
		return append(out, byte(cp))
	case cp <= 0x7ff:
		return append(out, byte(0xc0|cp>>6), byte(0x80|cp&0x3f))
	case cp < 0xffff:
		return append(out, byte(0xe0|cp>>12), byte(0x80|(cp>>6)&0x3f), byte(0x80|cp&0x3f))
	}
	return append(out, byte(0xf0|cp>>18), byte(0x80|(cp>>12)&0x3f), byte(0x80|(cp>>6)&0x3f), byte(0x80|cp&0x3f))
}

// updateDecimal64 takes an unscaled value at the column's scale.
func (s *statsAcc) updateDecimal64(v int64) {
	s.iMin = min(s.iMin, v)
	s.iMax = max(s.iMax, v)
	if !s.overflow {
		s.iSum += v
		s.overflow = s.iSum > maxDecimal64 || s.iSum < -maxDecimal64
	}
}

// updateDecimal takes an unscaled value at the column's scale (above 18
// digits: DecimalStatisticsImpl).
func (s *statsAcc) updateDecimal(v *big.Int) {
	switch {
	case s.bMin == nil:
		s.bMin, s.bMax = new(big.Int).Set(v), new(big.Int).Set(v)
	case s.bMin.Cmp(v) > 0:
		s.bMin.Set(v)
	case s.bMax.Cmp(v) < 0:
		s.bMax.Set(v)
	}
	if s.bSumOK {
		s.bSum.Add(s.bSum, v)
	}
}

// updateTimestamp mirrors TimestampStatisticsImpl.updateTimestamp(long,
// int): UTC milliseconds and the nanoseconds below the millisecond.
func (s *statsAcc) updateTimestamp(millis int64, nanos int32) {
	if s.tMin > s.tMax {
		s.tMin, s.tMax, s.tMinNanos, s.tMaxNanos = millis, millis, nanos, nanos
		return
	}
	if s.tMin >= millis {
		if s.tMin > millis || nanos < s.tMinNanos {
			s.tMinNanos = nanos
		}
		s.tMin = millis
	}
	if s.tMax <= millis {
		if s.tMax < millis || nanos > s.tMaxNanos {
			s.tMaxNanos = nanos
		}
		s.tMax = millis
	}
}

// merge folds o (the same column's statistics of a row group or stripe)
// into s, as ColumnStatisticsImpl.merge does.
func (s *statsAcc) merge(o *statsAcc) {
	switch s.kind {
	case kindByte, kindShort, kindInt, kindLong:
		if !s.hasMin {
			s.hasMin, s.iMin, s.iMax = o.hasMin, o.iMin, o.iMax
		} else if o.hasMin {
			s.iMin = min(s.iMin, o.iMin)
			s.iMax = max(s.iMax, o.iMax)
		}
		s.overflow = s.overflow || o.overflow
		if !s.overflow {
			sum := s.iSum + o.iSum
			if (o.iSum > 0 && sum < s.iSum) || (o.iSum < 0 && sum > s.iSum) {
				s.overflow = true
			} else {
				s.iSum = sum
			}
		}
	case kindFloat, kindDouble:
		if !s.hasMin {
			s.hasMin, s.dMin, s.dMax = o.hasMin, o.dMin, o.dMax
		} else if o.hasMin {
			if o.dMin < s.dMin {
				s.dMin = o.dMin
			}
			if o.dMax > s.dMax {
				s.dMax = o.dMax
			}
		}
		s.dSum += o.dSum
	case kindString, kindChar, kindVarchar:
		if s.count == 0 {
			if o.count != 0 {
				s.sMin, s.lowerSet = o.sMin, o.lowerSet
				s.sMax, s.upperSet = o.sMax, o.upperSet
			} else {
				s.sMin, s.sMax, s.lowerSet, s.upperSet = nil, nil, false, false
			}
		} else if o.count != 0 {
			if bytes.Compare(s.sMin, o.sMin) > 0 {
				s.sMin, s.lowerSet = o.sMin, o.lowerSet
			}
			if bytes.Compare(s.sMax, o.sMax) < 0 {
				s.sMax, s.upperSet = o.sMax, o.upperSet
			}
		}
		s.sSum += o.sSum
	case kindBinary:
		s.sSum += o.sSum
	case kindBoolean:
		s.trues += o.trues
	case kindDate:
		s.iMin = min(s.iMin, o.iMin)
		s.iMax = max(s.iMax, o.iMax)
	case kindList, kindMap:
		if s.count == 0 {
			s.iMin, s.iMax = o.iMin, o.iMax
		} else {
			s.iMin = min(s.iMin, o.iMin)
			s.iMax = max(s.iMax, o.iMax)
		}
		s.iSum += o.iSum
	case kindDecimal:
		if s.dec64 {
			if s.count == 0 {
				s.iMin, s.iMax, s.iSum, s.overflow = o.iMin, o.iMax, o.iSum, o.overflow
			} else {
				s.iMin = min(s.iMin, o.iMin)
				s.iMax = max(s.iMax, o.iMax)
				if !s.overflow && !o.overflow {
					s.iSum += o.iSum
					s.overflow = s.iSum > maxDecimal64 || s.iSum < -maxDecimal64
				} else {
					s.overflow = true
				}
			}
		} else if s.bMin == nil {
			if o.bMin != nil {
				s.bMin, s.bMax = new(big.Int).Set(o.bMin), new(big.Int).Set(o.bMax)
			}
			s.bSum, s.bSumOK = new(big.Int).Set(o.bSum), o.bSumOK
		} else if o.bMin != nil {
			if s.bMin.Cmp(o.bMin) > 0 {
				s.bMin.Set(o.bMin)
			}
			if s.bMax.Cmp(o.bMax) < 0 {
				s.bMax.Set(o.bMax)
			}
			if s.bSumOK && o.bSumOK {
				s.bSum.Add(s.bSum, o.bSum)
			} else {
				s.bSumOK = false
			}
		}
	case kindTimestamp, kindTimestampInstant:
		if s.count == 0 {
			if o.count != 0 {
				s.tMin, s.tMax, s.tMinNanos, s.tMaxNanos = o.tMin, o.tMax, o.tMinNanos, o.tMaxNanos
			}
		} else if o.count != 0 {
			if s.tMin >= o.tMin {
				if s.tMin > o.tMin || s.tMinNanos > o.tMinNanos {
					s.tMinNanos = o.tMinNanos
				}
				s.tMin = o.tMin
			}
			if s.tMax <= o.tMax {
				if s.tMax < o.tMax || s.tMaxNanos < o.tMaxNanos {
					s.tMaxNanos = o.tMaxNanos
				}
				s.tMax = o.tMax
			}
		}
	}
	s.count += o.count
	s.hasNull = s.hasNull || o.hasNull
	s.bytesOnDisk += o.bytesOnDisk
}

// serialize returns the message, as the Java classes' serialize does.
func (s *statsAcc) serialize() ColumnStatistics {
	cs := ColumnStatistics{NumberOfValues: s.count, HasNull: s.hasNull, BytesOnDisk: s.bytesOnDisk}
	switch s.kind {
	case kindByte, kindShort, kindInt, kindLong:
		v := &IntegerStatistics{}
		if s.hasMin {
			v.HasMinimum, v.Minimum, v.HasMaximum, v.Maximum = true, s.iMin, true, s.iMax
		}
		if !s.overflow {
			v.HasSum, v.Sum = true, s.iSum
		}
		cs.Int = v
	case kindFloat, kindDouble:
		v := &DoubleStatistics{HasSum: true, Sum: s.dSum}
		if s.hasMin {
			v.HasMinimum, v.Minimum, v.HasMaximum, v.Maximum = true, s.dMin, true, s.dMax
		}
		cs.Double = v
	case kindString, kindChar, kindVarchar:
		v := &StringStatistics{}
		if s.count != 0 {
			if s.lowerSet {
				v.HasLowerBound, v.LowerBound = true, javaText(s.sMin)
			} else {
				v.HasMinimum, v.Minimum = true, javaText(s.sMin)
			}
			if s.upperSet {
				v.HasUpperBound, v.UpperBound = true, javaText(s.sMax)
			} else {
				v.HasMaximum, v.Maximum = true, javaText(s.sMax)
			}
			v.HasSum, v.Sum = true, s.sSum
		}
		cs.String = v
	case kindBinary:
		cs.Binary = &BinaryStatistics{HasSum: true, Sum: s.sSum}
	case kindBoolean:
		cs.Bucket = &BucketStatistics{Count: []uint64{s.trues}}
	case kindDate:
		v := &DateStatistics{}
		if s.count != 0 {
			v.HasMinimum, v.Minimum, v.HasMaximum, v.Maximum = true, int32(s.iMin), true, int32(s.iMax)
		}
		cs.Date = v
	case kindList, kindMap:
		v := &CollectionStatistics{}
		if s.count != 0 {
			v.HasMinChildren, v.MinChildren, v.HasMaxChildren, v.MaxChildren = true, uint64(s.iMin), true, uint64(s.iMax)
		}
		if s.iSum != 0 {
			v.HasTotalChildren, v.TotalChildren = true, uint64(s.iSum)
		}
		cs.Collection = v
	case kindDecimal:
		v := &DecimalStatistics{}
		if s.dec64 {
			if s.count != 0 {
				v.HasMinimum, v.Minimum = true, hiveDecimalString(big.NewInt(s.iMin), s.scale)
				v.HasMaximum, v.Maximum = true, hiveDecimalString(big.NewInt(s.iMax), s.scale)
			}
			if !s.overflow {
				v.HasSum, v.Sum = true, hiveDecimalString(big.NewInt(s.iSum), s.scale)
			}
		} else {
			if s.count != 0 && s.bMin != nil {
				v.HasMinimum, v.Minimum = true, hiveDecimalString(s.bMin, s.scale)
				v.HasMaximum, v.Maximum = true, hiveDecimalString(s.bMax, s.scale)
			}
			// Java's sum is a HiveDecimal, unset when it exceeds 38
			// digits; it is written only while exact here.
			if s.bSumOK && len(new(big.Int).Abs(s.bSum).String()) <= 38 {
				v.HasSum, v.Sum = true, hiveDecimalString(s.bSum, s.scale)
			}
		}
		cs.Decimal = v
	case kindTimestamp, kindTimestampInstant:
		v := &TimestampStatistics{}
		if s.count != 0 {
			v.HasMinimumUTC, v.MinimumUTC, v.HasMaximumUTC, v.MaximumUTC = true, s.tMin, true, s.tMax
			if s.tMinNanos != 0 {
				v.HasMinimumNanos, v.MinimumNanos = true, s.tMinNanos+1
			}
			if s.tMaxNanos != 999_999 {
				v.HasMaximumNanos, v.MaximumNanos = true, s.tMaxNanos+1
			}
		}
		cs.Timestamp = v
	}
	return cs
}

// javaText is Hadoop Text.toString of a value: invalid UTF-8 becomes
// U+FFFD, as protobuf-java then writes the String.
func javaText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, w := utf8.DecodeRune(b)
		sb.WriteRune(r)
		b = b[w:]
	}
	return sb.String()
}

// hiveDecimalString renders an unscaled value the way HiveDecimal.toString
// does: plain notation without trailing fraction zeros ("1.5", "100",
// "-0.25", "0").
func hiveDecimalString(unscaled *big.Int, scale int) string {
	neg := unscaled.Sign() < 0
	digits := new(big.Int).Abs(unscaled).String()
	if scale > 0 {
		for len(digits) < scale+1 {
			digits = "0" + digits
		}
		intPart, frac := digits[:len(digits)-scale], strings.TrimRight(digits[len(digits)-scale:], "0")
		digits = intPart
		if frac != "" {
			digits += "." + frac
		}
	}
	if neg && digits != "0" {
		return "-" + digits
	}
	return digits
}
