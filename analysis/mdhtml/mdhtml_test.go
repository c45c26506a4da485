package mdhtml

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestRenderBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, md, want string
	}{
		{"heading", "## SA-T6.1: a table\n", `<h2 id="sa-t61-a-table">SA-T6.1: a table</h2>` + "\n"},
		{"paragraph over two lines", "one\ntwo\n\nthree\n", "<p>one\ntwo</p>\n<p>three</p>\n"},
		{"list", "- a\n- **b**: c\n", "<ul>\n<li>a</li>\n<li><strong>b</strong>: c</li>\n</ul>\n"},
		{"ordered list", "1. a\n2. b\n", "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"},
		{"paragraph then list", "text:\n- a\n", "<p>text:</p>\n<ul>\n<li>a</li>\n</ul>\n"},
		{"fence", "```\n<a> **b**\n```\n", "<pre><code>&lt;a&gt; **b**\n</code></pre>\n"},
		{"table", "| n | a b |\n|---:|---|\n| 1 | x **2** |\n",
			`<div class="scroll"><table>` + "\n" +
				`<thead><tr><th class="right nowrap">n</th><th class="nowrap">a b</th></tr></thead>` + "\n<tbody>\n" +
				`<tr><td class="right nowrap">1</td><td class="nowrap">x <strong>2</strong></td></tr>` + "\n" +
				"</tbody>\n</table></div>\n"},
		{"escaped pipe and a short row", "| a | b |\n|:-:|---|\n| x \\| y |\n",
			`<div class="scroll"><table>` + "\n" +
				`<thead><tr><th class="center nowrap">a</th><th class="nowrap">b</th></tr></thead>` + "\n<tbody>\n" +
				`<tr><td class="center nowrap">x | y</td><td class="nowrap"></td></tr>` + "\n" +
				"</tbody>\n</table></div>\n"},
		{"pipe line without a delimiter row is text", "| a |\nb\n", "<p>| a |\nb</p>\n"},
		{"table right after a paragraph", "t:\n| a |\n|---|\n| 1 |\n",
			"<p>t:</p>\n" + `<div class="scroll"><table>` + "\n" + `<thead><tr><th class="nowrap">a</th></tr></thead>` +
				"\n<tbody>\n" + `<tr><td class="nowrap">1</td></tr>` + "\n</tbody>\n</table></div>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Render(tc.md, Options{}).Body); got != tc.want {
				t.Errorf("Render(%q):\n got %q\nwant %q", tc.md, got, tc.want)
			}
		})
	}
}

func TestRenderInline(t *testing.T) {
	for _, tc := range []struct {
		md, want string
	}{
		{"a <k, B, P> & b", "a &lt;k, B, P&gt; &amp; b"},
		{"**bold** and `co**de**`", "<strong>bold</strong> and <code>co**de**</code>"},
		{"4j(j-1)/D * (n - E)", "4j(j-1)/D * (n - E)"},
		{"**open", "**open"},
		{"****", "****"},
		{"`open", "`open"},
		{"[docs](docs/models.md#35)", `<a href="docs/models.md#35">docs</a>`},
		{"[x](https://example.org/?a=1&b=2)", `<a href="https://example.org/?a=1&amp;b=2">x</a>`},
		{"[x](javascript:alert(1))", "[x](javascript:alert(1))"},
		{`[x]("><script>)`, `<a href="&#34;&gt;&lt;script&gt;">x</a>`},
		{"[a] b (c)", "[a] b (c)"},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
	} {
		got := string(Render(tc.md, Options{}).Body)
		want := "<p>" + tc.want + "</p>\n"
		if got != want {
			t.Errorf("Render(%q):\n got %q\nwant %q", tc.md, got, want)
		}
	}
}

func TestRenderTitleAndHeadings(t *testing.T) {
	doc := Render("# The `title`\n\nx\n\n## A: b\n\n### A: b\n\n## **C**\n", Options{})
	if doc.Title != "The title" {
		t.Errorf("title %q, want %q", doc.Title, "The title")
	}
	if strings.Contains(string(doc.Body), "<h1") {
		t.Errorf("the title is also in the body: %s", doc.Body)
	}
	want := []Heading{{2, "A: b", "a-b"}, {3, "A: b", "a-b-1"}, {2, "C", "c"}}
	if !reflect.DeepEqual(doc.Headings, want) {
		t.Errorf("headings %+v, want %+v", doc.Headings, want)
	}
	if untitled := Render("text\n# late\n", Options{}); untitled.Title != "" || len(untitled.Headings) != 1 {
		t.Errorf("a document not starting with a title: %+v", untitled)
	}
}

func TestRenderOptions(t *testing.T) {
	opts := Options{
		Class: func(s string) string {
			if s == "refuted" {
				return "refuted"
			}
			return ""
		},
		Link: func(s string) string {
			if s == "X-1" {
				return "#x-1"
			}
			return ""
		},
	}
	got := string(Render("- verdict: **refuted**: why\n\n| id | verdict |\n|---|---|\n| X-1 | refuted |\n", opts).Body)
	for _, want := range []string{
		`<strong class="refuted">refuted</strong>`,
		`<td class="nowrap"><a href="#x-1">X-1</a></td>`,
		`<td class="nowrap refuted">refuted</td>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestShort(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"6.0436 [6.0293, 6.0580]", true},
		{"−0.2000 [−0.2030, −0.1970]", true}, // multi-byte minus signs count as one character each
		{strings.Repeat("x", ShortCell), true},
		{strings.Repeat("x", ShortCell+1), false},
	} {
		if got := Short(tc.text); got != tc.want {
			t.Errorf("Short(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"SA-T6.1: strategy table, m = 3 (handover-uniform)", "sa-t61-strategy-table-m--3-handover-uniform"},
		{"Gerez: the <k, B, P> model", "gerez-the-k-b-p-model"},
		{"Sjölund & Åstrand", "sjölund--åstrand"},
		{"snake_case", "snake_case"},
	} {
		if got := Slug(tc.text); got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// A closing run of # is markup only after white space, and a heading of symbols alone still gets
// an id, unique on the page.
func TestHeadingsKeepTheirHashesAndIDs(t *testing.T) {
	doc := Render("# T\n\n## Memory in C#\n\n## ### ##\n\n## !!!\n\n## Plain ##\n", Options{})
	var got []string
	for _, h := range doc.Headings {
		got = append(got, h.Text+"|"+h.ID)
	}
	want := []string{"Memory in C#|memory-in-c", "###|section", "!!!|section-1", "Plain|plain"}
	if !slices.Equal(got, want) {
		t.Errorf("headings %q, want %q", got, want)
	}
}
