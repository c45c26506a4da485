package plots

import (
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// ellipsis marks a text shortened to fit.
const ellipsis = "…"

// sizeStep is the step, in points, by which fitText shrinks a font.
const sizeStep = 0.5

// fitText fits s into at most maxLines lines no wider than width: it wraps s at its spaces,
// shrinking the font of sty (in steps of sizeStep) down to minSize points until the lines fit.
// Text that does not fit even then is cut, its end marked by an ellipsis. It returns the lines
// joined by newlines and the style to draw them in.
func fitText(s string, sty text.Style, width vg.Length, maxLines int, minSize vg.Length) (string, text.Style) {
	maxLines = max(maxLines, 1)
	for size := sty.Font.Size; ; size -= sizeStep {
		if size < minSize {
			size = minSize
		}
		sty.Font = font.From(sty.Font, size)
		lines, ok := wrap(s, sty, width)
		if ok && len(lines) <= maxLines {
			return strings.Join(balance(s, sty, width, lines), "\n"), sty
		}
		if size <= minSize {
			if len(lines) > maxLines {
				lines = lines[:maxLines]
				lines[maxLines-1] += " " + ellipsis
			}
			for i, l := range lines {
				lines[i] = ellipsize(l, sty, width)
			}
			return strings.Join(lines, "\n"), sty
		}
	}
}

// wrap breaks s at its spaces into lines no wider than width in sty, greedily; ok is false when
// a word alone is wider than width (its line is then too wide).
func wrap(s string, sty text.Style, width vg.Length) (lines []string, ok bool) {
	ok = true
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && sty.Width(line+" "+w) <= width {
			line += " " + w
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = w
		if sty.Width(w) > width {
			ok = false
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines, ok
}

// balance returns the wrapping of s into as many lines as lines has, their longest as short as it
// can be (within a point), so that a last line does not hold a lone word.
func balance(s string, sty text.Style, width vg.Length, lines []string) []string {
	if len(lines) < 2 {
		return lines
	}
	lo, hi := width/vg.Length(len(lines)), width
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if l, ok := wrap(s, sty, mid); ok && len(l) <= len(lines) {
			hi, lines = mid, l
		} else {
			lo = mid
		}
	}
	return lines
}

// ellipsize returns s, or the longest start of it followed by an ellipsis that is no wider than
// width in sty (at least the ellipsis).
func ellipsize(s string, sty text.Style, width vg.Length) string {
	if sty.Width(s) <= width {
		return s
	}
	s = strings.TrimSuffix(s, " "+ellipsis)
	// The rune boundaries of s; keep the most runes whose start, with the ellipsis, fits.
	var cuts []int
	for i := range s {
		cuts = append(cuts, i)
	}
	fits := func(k int) bool { return sty.Width(strings.TrimRight(s[:cuts[k]], " ")+ellipsis) <= width }
	lo, hi := 0, len(cuts)-1 // cuts[0] = 0 always fits: the ellipsis alone is kept
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return strings.TrimRight(s[:cuts[lo]], " ") + ellipsis
}

// fitLabels returns labels, each shortened (with an ellipsis) to at most width in sty.
func fitLabels(labels []string, sty text.Style, width vg.Length) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = ellipsize(l, sty, width)
	}
	return out
}
