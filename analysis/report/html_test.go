package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
)

var (
	htmlHeading = regexp.MustCompile(`<h[1-6][^>]*>(.*?)</h[1-6]>`)
	mdHeading   = regexp.MustCompile(`(?m)^#{1,6} (.*)$`)
)

// testFigure is a figure with a distinct picture.
func testFigure(name, title, caption string) Figure {
	return Figure{Name: name, Title: title, Caption: caption,
		SVG: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><text>` + name + `</text></svg>`), PNG: []byte{1}}
}

// report.html holds every heading of report.md, each table in a box of its own that scrolls,
// with the intervals on one line; figures of one kind form one group, and a figure alone in its
// group under its own title is not titled twice.
func TestHTMLHoldsTheMarkdown(t *testing.T) {
	r := luckRun()
	figs := []Figure{
		testFigure("conv-a", "Convergence: a", "the same caption"),
		testFigure("dist-a", "Score distribution: a", "a caption"),
		testFigure("conv-b", "Convergence: b", "the same caption"),
		testFigure("matrix", "Tournament matrix, 4 pairs", "the matrix"),
		{Name: "x", Title: "Odd one", Kind: "Convergence", Caption: "another caption", SVG: []byte("<svg/>"), PNG: []byte{1}},
	}
	var md, page bytes.Buffer
	if err := WriteMarkdown(&md, r, figs); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&page, r, figs); err != nil {
		t.Fatal(err)
	}
	out := page.String()
	shown := map[string]int{}
	for _, m := range htmlHeading.FindAllStringSubmatch(out, -1) {
		shown[html.UnescapeString(m[1])]++
	}
	for _, m := range mdHeading.FindAllStringSubmatch(md.String(), -1) {
		if shown[m[1]] == 0 {
			t.Errorf("report.md's heading %q is not a heading of report.html", m[1])
		}
	}
	if n := shown["Tournament matrix, 4 pairs"]; n != 1 {
		t.Errorf("the matrix's title heads %d elements, want 1", n)
	}
	if n, boxed := strings.Count(out, "<table>"), strings.Count(out, `<div class="scroll"><table>`); n != boxed || n != len(tables(r)) {
		t.Errorf("%d tables, %d in a scroll box; want %d, all boxed", n, boxed, len(tables(r)))
	}
	if !strings.Contains(out, `<td class="nowrap">0.6667 [0.6667, 0.6667]</td>`) {
		t.Errorf("an interval cell is not kept on one line:\n%s", out)
	}
	// Three groups, in the order their kinds first appear; the convergence group shows no shared
	// caption, since the figure given its kind has another.
	groups := regexp.MustCompile(`<details class="figures" id="([^"]*)"`).FindAllStringSubmatch(out, -1)
	var ids []string
	for _, g := range groups {
		ids = append(ids, g[1])
	}
	if want := []string{"figures-convergence", "figures-score-distribution", "figures-tournament-matrix-4-pairs"}; strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("figure groups %v, want %v", ids, want)
	}
	conv := out[strings.Index(out, `id="figures-convergence"`):strings.Index(out, `id="figures-score-distribution"`)]
	for _, want := range []string{"conv-a</text>", "conv-b</text>", "<h4>Odd one</h4>", "the same caption PNG:", "another caption PNG:"} {
		if !strings.Contains(conv, want) {
			t.Errorf("the convergence group lacks %q", want)
		}
	}
	dist := out[strings.Index(out, `id="figures-score-distribution"`):strings.Index(out, `id="figures-tournament-matrix-4-pairs"`)]
	if !strings.Contains(dist, `<p class="caption">a caption</p>`) || strings.Contains(dist, "a caption PNG:") {
		t.Errorf("a group of one figure does not show its caption once, as the group's:\n%s", dist)
	}
}

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		f    Figure
		want string
	}{
		{Figure{Title: "Convergence: a vs b, 3 pairs"}, "Convergence"},
		{Figure{Title: "Tournament matrix, 4 pairs"}, "Tournament matrix, 4 pairs"},
		{Figure{Title: "Convergence: a", Kind: "Lines"}, "Lines"},
	} {
		if got := kindOf(&tc.f); got != tc.want {
			t.Errorf("kindOf(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}
