package audit

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"slices"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// tableClaims lists the published strategy tables: identifier, file, model, unseen singletons.
func tableClaims() []struct {
	id, file, claim string
	model           exact.Model
	unseen          int
} {
	hu := func(m int) exact.Model {
		return exact.Model{Memory: rules.Memory{Capacity: m, Forget: rules.ForgetHandoverUniform}, Choices: SourceChoices}
	}
	return []struct {
		id, file, claim string
		model           exact.Model
		unseen          int
	}{
		{"SA-T6.1", "table-6.1-memory-3.txt", "strategy table, m = 3 (handover-uniform)", hu(3), 0},
		{"SA-T6.2", "table-6.2-memory-6.txt", "strategy table, m = 6 (handover-uniform)", hu(6), 0},
		{"SA-T6.3", "table-6.3-memory-12.txt", "strategy table, m = 12 (handover-uniform)", hu(12), 0},
		{"SA-T6.4", "table-6.4-perfect-memory.txt", "strategy table, perfect memory", exact.Model{Choices: SourceChoices}, 0},
		{"SA-T6.5", "table-6.5-singletons-2-unseen-2.txt", "strategy table, s = 2, f = 2", exact.Model{Singletons: 2, Choices: SourceChoices}, 2},
		{"SA-T6.6", "table-6.6-singletons-2-unseen-1.txt", "strategy table, s = 2, f = 1", exact.Model{Singletons: 2, Choices: SourceChoices}, 1},
	}
}

// The grid the formula terms are checked on: every n up to termMaxN, every j, and these
// capacities (perfect-memory terms once).
const termMaxN = 20

func termCaps() []int { return []int{2, 3, 4, 6, 12} }

// Options tune an audit run.
type Options struct {
	// Sim estimates expectations by simulation; nil leaves the simulated column empty (the duel,
	// which needs no card game, is simulated here).
	Sim Simulator
	// Games is the number of games (or duels) of each simulation; 0 simulates nothing.
	Games int64
	// SolitaireN and DuelN are the sizes the solitaire and duel claims are simulated at.
	SolitaireN, DuelN int
	// WinSizes are the deal sizes of the win findings beyond the sources (nil: WinSizes()).
	WinSizes []int
}

// Run audits every claim this version checks, reading the claims' files from claims (CLAIMS.md
// and the tables). The report also lists the identifiers CLAIMS.md names that it did not audit.
func Run(ctx context.Context, claims fs.FS, opts Options) (*Report, error) {
	var findings []Finding
	for _, tc := range tableClaims() {
		data, err := fs.ReadFile(claims, tc.file)
		if err != nil {
			return nil, fmt.Errorf("claim %s: %w", tc.id, err)
		}
		findings = append(findings, AuditTable(ctx, tc.id, tc.claim, data, tc.model, tc.unseen))
	}
	for _, t := range Terms() {
		findings = append(findings, AuditTerm(t, termMaxN, termCaps()))
	}
	for _, sf := range SolvedForms() {
		findings = append(findings, AuditSolvedFor(ctx, sf, termMaxN, termCaps()))
	}
	for _, ex := range Examples() {
		findings = append(findings, AuditExample(ctx, ex))
	}
	findings = append(findings, AuditGerez(ctx)...)
	findings = append(findings, AuditDuel(ctx, opts.Games, opts.DuelN)...)
	findings = append(findings, AuditAlfthan(ctx, opts.Sim))
	curve := SolitaireCurve(ctx)
	findings = append(findings, AuditSolitaire(ctx, curve, opts.Sim, opts.SolitaireN)...)
	findings = append(findings, AuditLiterature(ctx, claims, curve)...)
	findings = append(findings, AuditPeer(ctx, opts.Sim, opts.Games)...)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids, err := Identifiers(claims)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, f := range findings {
		done[f.ID] = true
	}
	sizes := opts.WinSizes
	if sizes == nil {
		sizes = WinSizes()
	}
	beyond, err := AuditBeyond(ctx, claims, sizes)
	if err != nil {
		return nil, err
	}
	r := &Report{Claims: findings, Games: opts.Games, Beyond: beyond}
	for _, id := range ids {
		if !done[id] {
			r.NotAudited = append(r.NotAudited, id)
		}
	}
	return r, nil
}

var identifier = regexp.MustCompile("`((?:SA|GZ|AL|VW|FW|ZP|PX|TK)-[A-Za-z0-9.-]+)`")

// Identifiers lists the claim identifiers CLAIMS.md names, in order, once each.
func Identifiers(claims fs.FS) ([]string, error) {
	data, err := fs.ReadFile(claims, "CLAIMS.md")
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, m := range identifier.FindAllSubmatch(data, -1) {
		if id := string(m[1]); !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
