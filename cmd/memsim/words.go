package main

import (
	"math"
	"strconv"
	"strings"
)

// count writes n with its noun, singular for one and plural otherwise: "1 worker", "2 workers",
// "0 matches" (see nounOf).
func count[T ~int | ~int64](n T, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + nounOf(n, noun)
}

// nounOf is the noun of n things, singular for one and plural otherwise: the plural adds "es" to
// a noun ending in s, x, ch or sh, and "s" to any other.
func nounOf[T ~int | ~int64](n T, noun string) string {
	if n == 1 {
		return noun
	}
	for _, end := range []string{"s", "x", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return noun + "es"
		}
	}
	return noun + "s"
}

// rateText writes a rate of games (or anything) per second to 3 significant digits, with commas
// between the thousands: "173,000", "1,230", "12.3", "0.0456". A rate that is not positive and
// finite is "0".
func rateText(v float64) string {
	return significant(v, 3)
}

// significant writes v, positive, to digits significant digits, with commas between the
// thousands and no exponent: significant(2096543, 4) is "2,097,000". A value that is not
// positive and finite is "0".
func significant(v float64, digits int) string {
	if !(v > 0) || math.IsInf(v, 0) {
		return "0"
	}
	// Round first, so that 99.96 to 3 digits is 100, written as a whole number.
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	exp := int(math.Floor(math.Log10(v))) // v is at least 10^exp
	if exp+1 >= digits {
		return grouped(strconv.FormatFloat(v, 'f', 0, 64))
	}
	return grouped(strconv.FormatFloat(v, 'f', digits-1-exp, 64))
}

// grouped puts commas between the thousands of the whole part of the decimal number s:
// "1234567.5" is "1,234,567.5".
func grouped(s string) string {
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}
