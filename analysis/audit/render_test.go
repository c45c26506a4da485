package audit

import (
	"html"
	"regexp"
	"strings"
	"testing"
)

// sampleReport is a report with a finding of each shape: a refuted table with its cells side by
// side, a confirmed value with a simulation, and the section beyond the sources.
func sampleReport() *Report {
	return &Report{
		Games: 100,
		Claims: []Finding{
			{ID: "SA-T6.1", Claim: "strategy table, m = 3", Published: "2 cells", Exact: "1 cell differs", Verdict: Refuted,
				Reason: "1 of 2 cells differ: (2,1) published 0, solver 1",
				Detail: "| n | published | solver |\n|---:|---|---|\n| 1 | 2 | 2 |\n| 2 | 0 2 | **1** 2 |\n"},
			{ID: "GZ-3.1", Claim: "states satisfy k >= B >= P", Published: "<k, B, P>", Exact: "all", Verdict: Confirmed,
				Reason: "every state", Simulated: "0.5400 [0.4441, 0.6359]"},
		},
		NotAudited: []string{"VW-X"},
		Beyond: &Beyond{
			KnownFirst: []KnownFirstStates{{Model: "perfect memory, pass never", MaxPairs: 20, States: 1,
				ByUnknown: []KnownFirstRow{{Unknown: 1, Pairs: "9-20"}}, Gain: Number{Exact: "1/3", Float: 1.0 / 3}, Where: "(n=20, j=1)"}},
			Tables: []TableShift{{ID: "SA-T6.1", Cells: 2}},
			Win:    &WinFindings{Matches: []WinMatch{{Pairs: 4, First: true}}, Differ: []WinDiffer{{Pairs: 4, States: 14}}},
		},
	}
}

// audit.html holds all of audit.md as HTML: every heading, every table as a real table in a box
// that scrolls, bold as <strong> and no Markdown left as text; the verdicts are coloured and each
// claim's identifier in the summary links to its section.
func TestHTMLHoldsTheMarkdown(t *testing.T) {
	res := sampleReport()
	md := res.Markdown()
	page, err := res.HTML()
	if err != nil {
		t.Fatal(err)
	}
	out := string(page)
	headings := map[string]bool{}
	for _, m := range regexp.MustCompile(`<h[1-6][^>]*>(.*?)</h[1-6]>`).FindAllStringSubmatch(out, -1) {
		headings[html.UnescapeString(m[1])] = true
	}
	for _, m := range regexp.MustCompile(`(?m)^#{1,6} (.*)$`).FindAllStringSubmatch(md, -1) {
		if !headings[m[1]] {
			t.Errorf("audit.md's heading %q is not a heading of audit.html", m[1])
		}
	}
	mdTables := len(regexp.MustCompile(`(?m)^\|(-+:?\|)+$`).FindAllString(md, -1))
	if n, boxed := strings.Count(out, "<table>"), strings.Count(out, `<div class="scroll"><table>`); n != mdTables || boxed != n {
		t.Errorf("%d tables, %d in a scroll box; audit.md has %d", n, boxed, mdTables)
	}
	for _, bad := range []string{"**", "<pre", "|---", "<k, B, P>"} {
		if strings.Contains(out, bad) {
			t.Errorf("audit.html holds %q", bad)
		}
	}
	for _, want := range []string{
		"<strong>1</strong> 2",
		`<strong class="refuted">refuted</strong>`,
		`<td class="nowrap refuted">refuted</td>`,
		`<td class="nowrap"><a href="#sa-t61-strategy-table-m--3">SA-T6.1</a></td>`,
		`<h2 id="sa-t61-strategy-table-m--3">`,
		`<td class="nowrap"><a href="#gz-31-states-satisfy-k--b--p">GZ-3.1</a></td>`,
		`<h2 id="gz-31-states-satisfy-k--b--p">`,
		"&lt;k, B, P&gt;",
		"Not audited by this version: VW-X.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("audit.html lacks %q", want)
		}
	}
}
