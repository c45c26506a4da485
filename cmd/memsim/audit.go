package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"html/template"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"memsim/analysis/audit"
	"memsim/analysis/report"
	"memsim/analysis/stats"
	"memsim/configs"
	"memsim/sim"
	"memsim/strategies"
)

const auditUsage = `Usage:
  memsim audit [--games G] [--workers W] [--json] [--output DIR]

Checks the published claims (configs/claims/CLAIMS.md and its tables) against the exact solver and
simulation, and writes audit.md, audit.json and audit.html to DIR (default results/audit). A refuted
claim is a finding, not a failure: the exit status is 0 unless the audit could not run.

Flags:
`

type auditFlags struct {
	games   int64
	workers int
	json    bool
	output  string
}

// auditResult is what audit.json holds.
type auditResult struct {
	Claims []audit.Finding `json:"claims"`
	// NotAudited lists the identifiers of CLAIMS.md this version does not check yet.
	NotAudited []string `json:"not_audited"`
	Games      int64    `json:"games"`
}

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var fl auditFlags
	fs := flag.NewFlagSet("memsim audit", flag.ContinueOnError)
	fs.Int64Var(&fl.games, "games", 200000, "`G` games (or duels) per simulation")
	fs.IntVar(&fl.workers, "workers", 0, "`W` worker goroutines (0: one per CPU)")
	fs.BoolVar(&fl.json, "json", false, "print audit.json on stdout instead of the summary")
	fs.StringVar(&fl.output, "output", filepath.Join("results", "audit"), "`DIR` for audit.md, audit.json and audit.html")
	fs.SetOutput(io.Discard)
	if code, done := parseFlags(fs, auditUsage, args, stdout, stderr); done {
		return code
	}
	return exitFor(fs.Name(), runAuditTo(ctx, fl, fs.Args(), stdout), stderr)
}

func runAuditTo(ctx context.Context, fl auditFlags, args []string, stdout io.Writer) error {
	switch {
	case len(args) > 0:
		return usagef("unexpected argument %q", args[0])
	case fl.games < 100:
		return usagef("--games %d: must be at least 100", fl.games)
	case fl.workers < 0:
		return usagef("--workers %d: must be 0 (one per CPU) or more", fl.workers)
	}
	sim := &auditSim{games: fl.games, workers: fl.workers}
	findings, missing, err := audit.Run(ctx, configs.Claims(), audit.Options{Sim: sim, SolitaireN: 100, DuelN: 9})
	if err != nil {
		return err
	}
	res := auditResult{Claims: findings, NotAudited: missing, Games: fl.games}
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	js = append(js, '\n')
	md := auditMarkdown(res)
	var html bytes.Buffer
	if err := auditPage.Execute(&html, res); err != nil {
		return err
	}
	if err := os.MkdirAll(fl.output, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", fl.output, err)
	}
	for name, data := range map[string][]byte{"audit.json": js, "audit.md": []byte(md), "audit.html": html.Bytes()} {
		if err := report.WriteFileAtomic(filepath.Join(fl.output, name), data); err != nil {
			return err
		}
	}
	if fl.json {
		_, err = stdout.Write(js)
		return err
	}
	_, err = io.WriteString(stdout, auditSummary(res))
	return err
}

// auditGroups names the groups of claims by identifier prefix, in the order of the summary.
func auditGroups() [][2]string {
	return [][2]string{
		{"SA-T", "Sjölund & Åstrand: strategy tables"},
		{"SA-4", "Sjölund & Åstrand: formula terms, limited memory"},
		{"SA-5", "Sjölund & Åstrand: formula terms, singletons"},
		{"SA-Ex", "Sjölund & Åstrand: worked examples"},
		{"SA-2", "Sjölund & Åstrand: the interval-halving duel"},
		{"GZ", "Gerez: the <k, B, P> model"},
		{"AL", "Alfthan"},
		{"VW", "Velleman & Warrington"},
	}
}

// auditSummary is the table of verdicts: a short count per group of claims, then one line per
// claim.
func auditSummary(res auditResult) string {
	var b strings.Builder
	b.WriteString("| claims | confirmed | refuted | inconclusive |\n|---|---:|---:|---:|\n")
	for _, g := range auditGroups() {
		count := map[audit.Verdict]int{}
		for _, f := range res.Claims {
			if strings.HasPrefix(f.ID, g[0]) {
				count[f.Verdict]++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", g[1], count[audit.Confirmed], count[audit.Refuted], count[audit.Inconclusive])
	}
	b.WriteString("\n| claim | verdict | reason |\n|---|---|---|\n")
	for _, f := range res.Claims {
		reason := f.Reason
		if len(reason) > 160 {
			reason = reason[:157] + "..."
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", f.ID, f.Verdict, strings.ReplaceAll(reason, "|", "\\|"))
	}
	if len(res.NotAudited) > 0 {
		fmt.Fprintf(&b, "\nNot audited by this version: %s.\n", strings.Join(res.NotAudited, ", "))
	}
	return b.String()
}

func auditMarkdown(res auditResult) string {
	var b strings.Builder
	b.WriteString("# Audit of the published claims\n\n")
	fmt.Fprintf(&b, "Exact values from the solver under the rules of MODELS.md; simulations of %d games (or duels) each, with 95%% intervals.\n\n", res.Games)
	b.WriteString(auditSummary(res))
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
	return b.String()
}

var auditPage = template.Must(template.New("audit").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>memsim audit</title>
<style>body{font-family:system-ui,sans-serif;max-width:75em;margin:2em auto;padding:0 1em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left}
.refuted{color:#b00;font-weight:bold}.confirmed{color:#070}.inconclusive{color:#a60}pre{background:#f6f6f6;padding:.5em}</style></head>
<body><h1>Audit of the published claims</h1>
<table><tr><th>claim</th><th>verdict</th><th>published</th><th>exact</th><th>simulated</th><th>reason</th></tr>
{{range .Claims}}<tr><td>{{.ID}}</td><td class="{{.Verdict}}">{{.Verdict}}</td><td>{{.Published}}</td><td>{{.Exact}}</td><td>{{.Simulated}}</td><td>{{.Reason}}</td></tr>
{{end}}</table>
{{if .NotAudited}}<p>Not audited by this version: {{range .NotAudited}}{{.}} {{end}}</p>{{end}}
{{range .Claims}}{{if .Detail}}<h2>{{.ID}}: {{.Claim}}</h2><pre>{{.Detail}}</pre>{{end}}{{end}}
</body></html>
`))

// auditSim is the audit's simulator, on the engine.
type auditSim struct {
	games   int64
	workers int
}

func (s *auditSim) match(ctx context.Context, n int, players []strategies.Spec, orders [][]int, stream uint64) (*sim.Result, error) {
	env := strategies.Env{MaxPairs: n, Players: len(orders[0])}
	m := sim.Match{Setup: sim.Setup{Pairs: n}, Orders: orders, Deals: s.games, Seed: 20261121, DealStream: stream, PlayStream: stream + 1}
	for _, p := range players {
		b, err := strategies.Build(ctx, p, env)
		if err != nil {
			return nil, err
		}
		m.Setup.Players = append(m.Setup.Players, b.Player)
	}
	return m.Play(ctx, s.workers, nil)
}

func (s *auditSim) Solitaire(ctx context.Context, n int) (turns, thw, lucky, lhw float64, err error) {
	res, err := s.match(ctx, n, []strategies.Spec{{Name: "optimal", Policy: "optimal"}}, [][]int{{0}}, 1<<40)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	t := res.Orders[0]
	tm, lm := stats.MomentsFromSums(t.Games, t.TurnSum, t.TurnSumSq), stats.MomentsFromSums(t.Games, t.Lucky, t.LuckySumSq)
	return tm.Mean, stats.HalfWidth(tm, 0.95), lm.Mean, stats.HalfWidth(lm, 0.95), nil
}

func (s *auditSim) Share(ctx context.Context, opponent string, n int) (float64, float64, error) {
	players := []strategies.Spec{{Name: "optimal", Policy: "optimal"}, {Name: opponent, Policy: opponent}}
	res, err := s.match(ctx, n, players, [][]int{{0, 1}, {1, 0}}, 2<<40)
	if err != nil {
		return 0, 0, err
	}
	// The optimal player's two scores on a deal add up to k/2 pairs: its share is k/(4n).
	mo := stats.MomentsFromHistogram(res.Paired.Sum, 0, 0.25/float64(n))
	return mo.Mean, stats.HalfWidth(mo, 0.95), nil
}

func (s *auditSim) Duel(ctx context.Context, n int) (float64, float64, error) {
	_, guess := audit.DuelValues(n)
	// Each player guesses the lowest of the optimal numbers of the interval left.
	best := make([]int, n+1)
	for m := 1; m <= n; m++ {
		for i := range m {
			if guess[m][i].Cmp(guess[m][best[m]]) > 0 {
				best[m] = i
			}
		}
	}
	r := rand.New(rand.NewPCG(20261121, uint64(n)))
	var wins int64
	for range s.games {
		secret := r.IntN(n)
		lo, hi, mover := 0, n, 0 // the interval [lo, hi)
		for {
			g := lo + best[hi-lo]
			if g == secret {
				break
			}
			if secret < g {
				hi = g
			} else {
				lo = g + 1
			}
			mover = 1 - mover
		}
		if mover == 0 {
			wins++
		}
	}
	lo, hi := stats.Wilson(wins, s.games, 0.95)
	p := float64(wins) / float64(s.games)
	return p, (hi - lo) / 2, nil
}
