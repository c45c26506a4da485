package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/mdhtml"
)

// Report is the outcome of an audit, as audit.json holds it.
type Report struct {
	Claims []Finding `json:"claims"`
	// NotAudited lists the identifiers of CLAIMS.md this version does not check yet.
	NotAudited []string `json:"not_audited"`
	// Games is the number of games (or duels) of each simulation.
	Games int64 `json:"games"`
	// Beyond is what the full game changes in the sources' models (not a verdict).
	Beyond *Beyond `json:"beyond_the_sources,omitempty"`
}

// JSON is audit.json: the report as indented JSON with a trailing newline.
func (res *Report) JSON() ([]byte, error) {
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(js, '\n'), nil
}

// HTML is audit.html: audit.md (Markdown) rendered as one self-contained page, with a list of
// its sections, verdicts coloured, and each claim's identifier in the summary linking to its
// section.
func (res *Report) HTML() ([]byte, error) {
	md := res.Markdown()
	// A first rendering names the sections, so that the claims' identifiers can link to them.
	targets := map[string]string{}
	for _, h := range mdhtml.Render(md, mdhtml.Options{}).Headings {
		if id, _, ok := strings.Cut(h.Text, ": "); ok && h.Level == 2 {
			targets[id] = "#" + h.ID
		}
	}
	doc := mdhtml.Render(md, mdhtml.Options{
		Class: func(text string) string {
			switch v := Verdict(text); v {
			case Confirmed, Refuted, Inconclusive:
				return string(v)
			}
			return ""
		},
		Link: func(text string) string { return targets[text] },
	})
	var sections []mdhtml.Heading
	for _, h := range doc.Headings {
		if h.Level == 2 {
			sections = append(sections, h)
		}
	}
	var b bytes.Buffer
	if err := page.Execute(&b, struct {
		mdhtml.Document
		Sections []mdhtml.Heading
		Style    template.CSS
	}{doc, sections, mdhtml.Style}); err != nil {
		return nil, fmt.Errorf("audit.html: %w", err)
	}
	return b.Bytes(), nil
}

// auditGroups names the groups of claims by identifier prefix, in the order of the summary.
func groups() [][2]string {
	return [][2]string{
		{"SA-T", "Sjölund & Åstrand: strategy tables"},
		{"SA-4", "Sjölund & Åstrand: formula terms, limited memory"},
		{"SA-5", "Sjölund & Åstrand: formula terms, singletons"},
		{"SA-Ex", "Sjölund & Åstrand: worked examples"},
		{"SA-2", "Sjölund & Åstrand: the interval-halving duel"},
		{"GZ", "Gerez: the <k, B, P> model"},
		{"AL", "Alfthan"},
		{"VW", "Velleman & Warrington"},
		{"FW", "Foerster & Wattenhofer"},
		{"ZP", "Zwick & Paterson"},
		{"PX", "Simultaneous flips (perplexus.info)"},
		{"TK", "taulantkoka/memory-game: bounded memory"},
	}
}

// Summary is the table of verdicts: a short count per group of claims, then one line per
// claim.
func (res *Report) Summary() string {
	var b strings.Builder
	b.WriteString("| claims | confirmed | refuted | inconclusive |\n|---|---:|---:|---:|\n")
	for _, g := range groups() {
		count := map[Verdict]int{}
		for _, f := range res.Claims {
			if strings.HasPrefix(f.ID, g[0]) {
				count[f.Verdict]++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", g[1], count[Confirmed], count[Refuted], count[Inconclusive])
	}
	b.WriteString("\n| claim | verdict | reason |\n|---|---|---|\n")
	for _, f := range res.Claims {
		reason := f.Reason
		if r := []rune(reason); len(r) > 160 {
			reason = string(r[:157]) + "..."
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", f.ID, f.Verdict, strings.ReplaceAll(reason, "|", "\\|"))
	}
	if len(res.NotAudited) > 0 {
		fmt.Fprintf(&b, "\nNot audited by this version: %s.\n", strings.Join(res.NotAudited, ", "))
	}
	if res.Beyond != nil {
		b.WriteString("\nThe verdicts judge each claim in its source's own model ({daring, safe} for Sjölund & Åstrand and Alfthan; " +
			"{daring, safe, pass} with pass two-known for Zwick & Paterson and for taulantkoka/memory-game). " +
			"Beyond the sources (the section of that name in audit.md and audit.html): the full game adds known-first and pass; ")
		for _, k := range res.Beyond.KnownFirst {
			if k.Model == modelName(exact.Model{}) {
				fmt.Fprintf(&b, "known-first is strictly best in %d states of %s with n <= %d.\n", k.States, k.Model, k.MaxPairs)
			}
		}
	}
	return b.String()
}

// Markdown is audit.md: the summary, then every claim with its verdict, values and detail.
func (res *Report) Markdown() string {
	var b strings.Builder
	b.WriteString("# Audit of the published claims\n\n")
	fmt.Fprintf(&b, "Exact values from the solver under the rules of docs/models.md, each claim in its source's own model; simulations of %d games (or duels) each, with 95%% intervals.\n\n", res.Games)
	b.WriteString(res.Summary())
	for _, f := range res.Claims {
		fmt.Fprintf(&b, "\n## %s: %s\n\n", f.ID, f.Claim)
		fmt.Fprintf(&b, "- verdict: **%s**: %s\n- published: %s\n- exact: %s\n", f.Verdict, f.Reason, f.Published, f.Exact)
		if f.Simulated != "" {
			fmt.Fprintf(&b, "- simulated: %s\n", f.Simulated)
		}
		if f.Detail != "" {
			b.WriteString("\n" + f.Detail)
		}
	}
	if res.Beyond != nil {
		b.WriteString(res.Beyond.markdown())
	}
	return b.String()
}

var page = template.Must(template.New("audit").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} — memsim</title>
<style>{{.Style}}</style>
</head>
<body>
<h1>{{.Title}}</h1>
<nav><details><summary>Contents ({{len .Sections}} sections)</summary>
<ol>{{range .Sections}}<li><a href="#{{.ID}}">{{.Text}}</a></li>{{end}}</ol>
</details></nav>
{{.Body}}</body>
</html>
`))
