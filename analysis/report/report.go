// Package report defines the data model of a tournament run's results (Run, written to
// results.json) and writes a run folder (WriteDir): config.yaml (the configuration as given),
// results.json (WriteJSON), matchups.csv (WriteCSV: one tidy row per matchup and seat), report.md
// (WriteMarkdown), report.html (WriteHTML: a self-contained page with its figures inline) and a
// PNG of every figure in plots/. It takes plain data and depends on no other memsim package.
//
// Units: scores are pairs collected per game, game lengths are turns per game, and counts (games,
// wins, draws, losses, stalemates, deals) are numbers of games or deals. Confidence intervals of
// means are two-sided 95% Student-t intervals, [low, high], in the unit of the mean; rates (wins,
// draws, losses) carry Wilson intervals. Exact values are exact rationals from the solver, written
// "p/q" (or an integer "p").
package report

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// SchemaVersion is the version of the results.json layout described by Run. It changes whenever a
// field is renamed or its meaning changes, or when reading a file needs a field that older files
// lack (version 4 added the seal: ConfigHash and ContentHash; version 5 each matchup's Verdict,
// and the Adjusted running mean of each convergence point of a luck-adjusted matchup);
// adding any other field does not change it.
const SchemaVersion = 5

// Run is the whole result of a tournament run, as written to results.json.
type Run struct {
	// SchemaVersion is the layout version of this record; writers of new runs set it to SchemaVersion.
	SchemaVersion int `json:"schema_version"`
	// ContentHash and ConfigHash are the run's seal (see Seal): the SHA-256, in hexadecimal, of
	// the record's canonical JSON with ContentHash empty, and the hash of the identity of the
	// configuration the run was computed from.
	ContentHash string `json:"content_hash"`
	ConfigHash  string `json:"config_hash"`
	// Name is the run's name, used as the report's title.
	Name string `json:"name"`
	// Seed is the master random seed from which every game's deal and choices derive.
	Seed uint64 `json:"seed"`
	// Games is the number of games played per matchup and deal size.
	Games int `json:"games"`
	// Paired reports whether the games were paired: the same deals replayed with the seat order
	// swapped, so that Pairings holds the pair-level statistics.
	Paired bool `json:"paired"`
	// Format is the tournament format, e.g. "round-robin", as named in the configuration.
	Format string `json:"format"`
	// Rules are the rules shared by every game of the run.
	Rules Rules `json:"rules"`
	// Players lists the named players that appear in the matchups.
	Players []Player `json:"players"`
	// Matchups holds one record per matchup (seat order) and deal size.
	Matchups []Matchup `json:"matchups"`
	// Pairings holds, for paired runs, one record per pair of players and deal size; empty otherwise.
	Pairings []Pairing `json:"pairings"`
	// Ratings are Bradley-Terry ratings per deal size, fitted from the games' wins, draws (as half
	// a win each) and losses between the players (two-player round robins).
	Ratings []Ratings `json:"ratings"`
	// Comparisons compare, by Welch's test, how two players fared against the first player
	// (two-player runs with at least three players).
	Comparisons []Comparison `json:"comparisons"`
}

// Rules are the rules of the game shared by every game of a run.
type Rules struct {
	// Pairs lists the deal sizes played, in pairs of cards.
	Pairs []int `json:"pairs"`
	// Singletons is the number of unmatched single cards added to each deal.
	Singletons int `json:"singletons"`
	// PlayersPerGame is the number of seats at the table.
	PlayersPerGame int `json:"players_per_game"`
	// Pass is the pass rule, e.g. "never", "two-known" or "always".
	Pass string `json:"pass"`
	// Copies is the number of cards of each face (docs/models.md §1.7), left out for 2 (pairs).
	Copies int `json:"copies,omitempty"`
	// Flips is "blind" when both cards of a turn are named before either is turned up; left out
	// for sequential flips.
	Flips string `json:"flips,omitempty"`
	// TurnLimit is the number of turns after which a game ends, left out for none.
	TurnLimit int `json:"turn_limit,omitempty"`
}

// Player describes one named player: a policy together with the memory it plays with.
type Player struct {
	// Name is the player's unique name, as used in Matchup.Players and Pairing.Players.
	Name string `json:"name"`
	// Policy is the name of the policy the player follows, e.g. "optimal" or "best-response".
	Policy string `json:"policy"`
	// Opponent is, for a policy defined relative to another (such as best-response), the policy it
	// is defined against; empty otherwise.
	Opponent string `json:"opponent,omitempty"`
	// Memory describes the player's memory, e.g. "perfect" or "lru(7)".
	Memory string `json:"memory"`
	// Choices lists the choices the player may make, comma-separated (e.g. "daring,safe"), when
	// they are fewer than every choice; empty for the full game.
	Choices string `json:"choices,omitempty"`
	// Table says which solver table the policy plays from, with a note when no exact model exists,
	// e.g. "shared lru(7) table: private memory has no exact model"; empty when not applicable.
	Table string `json:"table,omitempty"`
	// Process, for a player that ran as a process of its own (Policy "external"), says which
	// program it was.
	Process *Process `json:"process,omitempty"`
	// OnError is "forfeit" for a player process that loses a game at a fault of its instead of
	// stopping the run (on_error: forfeit); empty otherwise.
	OnError string `json:"on_error,omitempty"`
}

// OnErrorForfeit is Player.OnError for a player that forfeits a game at a fault.
const OnErrorForfeit = "forfeit"

// Process is a player that ran as a process speaking the player protocol (docs/protocol.md): what
// it said it is at its handshake, its command, and the SHA-256 of the files the command runs.
type Process struct {
	// Name, Version and View are what the player declared at its handshake.
	Name    string `json:"name"`
	Version string `json:"version"`
	View    string `json:"view"`
	// Command is the program and its arguments, as the configuration gives them.
	Command []string `json:"command"`
	// Files lists the program (resolved) and every argument that is a file, with its hash.
	Files []FileHash `json:"files"`
}

// FileHash is the SHA-256 of a file, in hexadecimal.
type FileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Matchup is the result of the games of one seat order at one deal size. Every per-seat slice has
// one entry per seat, in seat order.
type Matchup struct {
	// Pairs is the deal size, in pairs of cards.
	Pairs int `json:"pairs"`
	// Players lists the player names in seat order; Players[0] moves first.
	Players []string `json:"players"`
	// Games is the number of games played.
	Games int64 `json:"games"`
	// MeanPairs is, per seat, the mean number of pairs collected per game.
	MeanPairs []float64 `json:"mean_pairs"`
	// StdDev is, per seat, the sample standard deviation of the pairs collected per game.
	StdDev []float64 `json:"sd_pairs"`
	// CI95 is, per seat, the 95% confidence interval [low, high] of MeanPairs, in pairs per game.
	CI95 [][2]float64 `json:"ci95"`
	// ExactPairs is, per seat, the exact expected number of pairs per game as "p/q", or nil (null)
	// where no exact model of the matchup exists.
	ExactPairs []*string `json:"exact_pairs"`
	// Wins is, per seat, the number of games in which the seat collected strictly the most pairs.
	Wins []int64 `json:"wins"`
	// Draws is, per seat, the number of games in which the seat tied with another for the most pairs.
	Draws []int64 `json:"draws"`
	// Losses is, per seat, the number of games in which another seat collected more pairs.
	// For every seat Wins + Draws + Losses = Games.
	Losses []int64 `json:"losses"`
	// MeanTurns is the mean game length, in turns per game.
	MeanTurns float64 `json:"mean_turns"`
	// CI95Turns is the 95% confidence interval [low, high] of MeanTurns, in turns per game.
	CI95Turns [2]float64 `json:"ci95_turns"`
	// ExactTurns is the exact expected game length in turns as "p/q", where the solver has one
	// (solitaire); nil otherwise.
	ExactTurns *string `json:"exact_turns"`
	// Stalemates is the number of games that ended in a stalemate (every player passing).
	Stalemates int64 `json:"stalemates"`
	// TurnLimited is the number of games that ended at the turn limit with pairs on the table;
	// left out when 0.
	TurnLimited int64 `json:"turn_limited,omitempty"`
	// WinCI95, DrawCI95 and LossCI95 are, per seat, 95% Wilson intervals of the win, draw and
	// loss rates (Wins/Games and so on).
	WinCI95  [][2]float64 `json:"win_ci95"`
	DrawCI95 [][2]float64 `json:"draw_ci95"`
	LossCI95 [][2]float64 `json:"loss_ci95"`
	// StoppedEarly, when not empty, says why the match ended before its games were all played
	// (a stopping rule of the configuration); Games then counts the games played. An interval
	// after such a stop is approximate: stopping when the data look a certain way biases it.
	StoppedEarly string `json:"stopped_early"`
	// ShareCounts[i][k] is the number of games in which seat i collected k/len(Players) pairs
	// (a stalemate shares what is left equally), k = 0 .. Pairs·len(Players).
	ShareCounts [][]int64 `json:"share_counts"`
	// ExactDistribution[k] is the exact probability that seat 0 collects k/2 pairs (two players,
	// where the solver has a model), k = 0 .. 2·Pairs.
	ExactDistribution []float64 `json:"exact_distribution"`
	// Convergence is seat 0's running mean pairs per game, in deal order, with its 95% interval,
	// at checkpoints spread evenly on a logarithmic scale of games.
	Convergence []ConvergencePoint `json:"convergence"`
	// LuckAdjusted is the luck-adjusted estimate of the same means, or nil (null) where the games
	// had no luck table (solitaire, or deals too large for one).
	LuckAdjusted *LuckAdjusted `json:"luck_adjusted"`
	// Verdict is what the exact values and the intervals give (Judge): the interval that judges
	// them, the luck-adjusted one where there is one, and what lies outside it.
	Verdict Verdict `json:"verdict"`
	// Faults is, per seat, the games it lost by forfeit, by the kind of fault, when some seat's
	// player forfeits (Player.OnError); absent otherwise. A forfeited game counts in every other
	// field as the game it became: the offender keeps its pairs and the other seats share those
	// left on the table.
	Faults []Faults `json:"faults,omitempty"`
}

// Faults counts the games a seat forfeited, by what its player process did: Crashes (it exited or
// closed its output), Timeouts (no reply within its time per move, or it did not read its input)
// and Illegal (a reply that does not fit the game or breaks the protocol). Forfeits is their sum,
// the games forfeited.
type Faults struct {
	Crashes  int64 `json:"crashes"`
	Timeouts int64 `json:"timeouts"`
	Illegal  int64 `json:"illegal"`
	Forfeits int64 `json:"forfeits"`
}

// LuckAdjusted is a luck-adjusted estimate (docs/models.md §5.6). Every chance event of a game
// (a card nobody has seen turned face up) has a luck: the change it brings to the seat's expected
// score under a reference value function, minus the change expected before it. The luck terms
// have mean zero, so a seat's score minus a multiple of its game's luck estimates the same
// expected score as the raw mean, with the luck's share of the variance taken out.
type LuckAdjusted struct {
	// Reference says which value function measured the luck: the matchup's own model (every seat
	// follows a table and shares one memory with an exact model), or perfect-memory values on
	// the public record of the cards seen (any other matchup).
	Reference string `json:"reference"`
	// Coefficient is, per seat, the multiple of its luck subtracted: the one that minimises the
	// variance of the estimate (the regression of the score on the luck, fitted on the games; 1
	// where the reference values are exact for the games and the seats play them).
	Coefficient []float64 `json:"coefficient"`
	// MeanPairs is, per seat, the luck-adjusted mean pairs per game, and CI95 its 95% interval.
	MeanPairs []float64    `json:"mean_pairs"`
	CI95      [][2]float64 `json:"ci95"`
	// MeanLead is seat 0's luck-adjusted mean lead over seat 1, in pairs per game (two players),
	// and CI95Lead its 95% interval; null otherwise.
	MeanLead *float64    `json:"mean_lead"`
	CI95Lead *[2]float64 `json:"ci95_lead"`
	// VarianceReduction is seat 0's raw variance over its adjusted variance: the factor by which
	// the luck adjustment cuts the games needed for an interval of the same width. Null when the
	// adjusted estimate has no variance at all (every game gave the same adjusted score).
	VarianceReduction *float64 `json:"variance_reduction"`
}

// Comparison is Welch's test of A's and B's mean pairs per game against the same opponent, over
// the games of both seat orders (independent games: the two matchups have their own deals).
type Comparison struct {
	Pairs    int    `json:"pairs"`
	Opponent string `json:"opponent"`
	A        string `json:"a"`
	B        string `json:"b"`
	// Diff is A's mean pairs per game minus B's; T, DF and P are Welch's statistic, its degrees of
	// freedom and the two-sided p-value.
	Diff float64 `json:"diff"`
	T    float64 `json:"t"`
	DF   float64 `json:"df"`
	P    float64 `json:"p"`
}

// Ratings are the Bradley-Terry ratings of the players at one deal size.
type Ratings struct {
	Pairs   int      `json:"pairs"`
	Players []Rating `json:"players"`
}

// Rating is a player's Bradley-Terry score: its log-strength, centred so that the scores of the
// players rated together sum to zero (the difference of two scores is the log-odds that one beats
// the other), with a 95% Wald interval [Lo, Hi] for that centred score.
type Rating struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// ConvergencePoint is a running mean after the first Games games, with its 95% interval.
type ConvergencePoint struct {
	Games int64   `json:"games"`
	Mean  float64 `json:"mean"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// Adjusted is the luck-adjusted mean of the same games, fitted to them alone, with its 95%
	// interval; nil for a matchup without a luck-adjusted estimate.
	Adjusted *RunningMean `json:"adjusted"`
}

// RunningMean is a mean over the games so far with its 95% interval.
type RunningMean struct {
	Mean float64 `json:"mean"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// Pairing compares two players over the same deals, each deal played once in each seat order.
type Pairing struct {
	// Pairs is the deal size, in pairs of cards.
	Pairs int `json:"pairs"`
	// Players names the two players, A = Players[0] and B = Players[1].
	Players [2]string `json:"players"`
	// Deals is the number of deals, each played twice.
	Deals int64 `json:"deals"`
	// MeanAdvantage is A's mean advantage in pairs per game: for each deal, (A's pairs when A moves
	// first + A's pairs when B moves first)/2 - Pairs/2, averaged over the deals. Positive favours A.
	MeanAdvantage float64 `json:"mean_advantage"`
	// CI95 is the 95% confidence interval [low, high] of MeanAdvantage, in pairs per game, computed
	// over the per-deal advantages.
	CI95 [2]float64 `json:"ci95"`
	// VarianceReduction is how many times as many games the same estimate would need from
	// independent deals: (Var(a1) + Var(a2)) / Var(a1 + a2), where a1 and a2 are A's pairs in the
	// two games of a deal. Above 1, pairing the deals helped. Null when the paired estimate has
	// no variance at all (the ratio is infinite, or 0/0).
	VarianceReduction *float64 `json:"variance_reduction"`
	// SPRT is the outcome of the configuration's sequential test for this pairing, if any.
	SPRT *SPRT `json:"sprt"`
	// LuckAdjusted is the luck-adjusted estimate of A's advantage (each deal's two games' luck
	// taken out together), or nil (null) where the games had no luck table.
	LuckAdjusted *PairingLuck `json:"luck_adjusted"`
}

// PairingLuck is the luck-adjusted estimate of a pairing's advantage (see LuckAdjusted).
type PairingLuck struct {
	// Coefficient is the multiple of each deal's luck subtracted (fitted as in LuckAdjusted).
	Coefficient float64 `json:"coefficient"`
	// MeanAdvantage is A's luck-adjusted mean advantage in pairs per game, and CI95 its 95%
	// interval.
	MeanAdvantage float64    `json:"mean_advantage"`
	CI95          [2]float64 `json:"ci95"`
	// VarianceReduction is the raw paired advantage's variance over the adjusted one's; null
	// when the adjusted estimate has no variance at all.
	VarianceReduction *float64 `json:"variance_reduction"`
}

// SPRT is the outcome of Wald's sequential probability ratio test of "A's mean lead over B is 0"
// against "it is D pairs per game", with error rates Alpha and Beta, on each deal's lead (A's
// pairs minus B's, per game, averaged over the deal's two games: twice the pairing's advantage).
type SPRT struct {
	D        float64 `json:"d"`
	Alpha    float64 `json:"alpha"`
	Beta     float64 `json:"beta"`
	Decision string  `json:"decision"`
	// LLR is the log-likelihood ratio when the test stopped (or when the games ran out); the
	// test accepts "0" when it falls to Lower = ln(β/(1-α)) and "D" when it rises to Upper =
	// ln((1-β)/α).
	LLR   float64 `json:"llr"`
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
}

// matchupName joins the seat order with " vs ".
func matchupName(players []string) string {
	return strings.Join(players, " vs ")
}

// ExactFloat returns the value of an exact "p/q" (ExactPairs' form), NaN if s is not one.
func ExactFloat(s string) float64 {
	r := exactRat(&s)
	if r == nil {
		return math.NaN()
	}
	f, _ := r.Float64()
	return f
}

// parseExact parses an exact value "p/q" or "p" (integers only; no decimals or exponents).
func parseExact(s string) (*big.Rat, error) {
	num, den, frac := strings.Cut(s, "/")
	if !isInteger(num) || (frac && (!isInteger(den) || strings.HasPrefix(den, "-") || strings.HasPrefix(den, "+"))) {
		return nil, fmt.Errorf("exact value %q is not of the form p/q", s)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("exact value %q is not a rational (zero denominator?)", s)
	}
	return r, nil
}

func isInteger(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// OutsideCI names what of the matchup has an exact value outside its 95% interval: "seat i" for
// each such seat, "turns" for the game length; nil where every exact value is inside.
func (m *Matchup) OutsideCI() []string {
	var out []string
	for s := range m.Players {
		if s < len(m.ExactPairs) && s < len(m.CI95) && outside(m.ExactPairs[s], m.CI95[s]) {
			out = append(out, fmt.Sprintf("seat %d", s))
		}
	}
	if outside(m.ExactTurns, m.CI95Turns) {
		out = append(out, "turns")
	}
	return out
}

// outside reports whether the exact value s lies outside the closed interval ci, comparing exactly.
// A nil s is never outside.
func outside(s *string, ci [2]float64) bool {
	x := exactRat(s)
	if x == nil {
		return false // none, or one Validate has already rejected
	}
	lo, hi := new(big.Rat).SetFloat64(ci[0]), new(big.Rat).SetFloat64(ci[1])
	return x.Cmp(lo) < 0 || x.Cmp(hi) > 0
}

// AdjustedResolution and AdjustedSlack are the slack OutsideAdjustedCI allows either side of a
// luck-adjusted interval: AdjustedResolution pairs, plus AdjustedSlack times the largest of 1 and
// the magnitudes of the exact value and the interval's ends. The engine rounds each game's luck
// to a multiple of 2^-24 pairs (sim.LuckUnit) so that its sums merge exactly, which can shift an
// adjusted mean by up to half of that (a lead by up to a whole unit) times the coefficient, the
// same way in every game; and the reference values are float64. Where no variance is left (an
// interval of zero width) these alone would put an exact value outside. Two units cover the
// rounding for coefficients up to 2; against an interval of any real width the slack is far
// below what the report prints.
const (
	AdjustedResolution = 1.0 / (1 << 23)
	AdjustedSlack      = 1e-9
)

// OutsideAdjustedCI names what of the matchup has an exact value outside its luck-adjusted 95%
// interval, allowing AdjustedResolution and AdjustedSlack: "seat i" for each such seat, and "lead" when seat 0's exact
// lead over seat 1 (two players, both exact) is outside the interval of the adjusted lead. It is
// nil without a luck-adjusted estimate or where every exact value is inside. The game length is
// not luck-adjusted: OutsideCI checks it.
func (m *Matchup) OutsideAdjustedCI() []string {
	la := m.LuckAdjusted
	if la == nil {
		return nil
	}
	var out []string
	for s := range m.Players {
		if s < len(m.ExactPairs) && s < len(la.CI95) && outsideSlack(exactRat(m.ExactPairs[s]), la.CI95[s]) {
			out = append(out, fmt.Sprintf("seat %d", s))
		}
	}
	if len(m.Players) == 2 && len(m.ExactPairs) == 2 && la.CI95Lead != nil {
		a, b := exactRat(m.ExactPairs[0]), exactRat(m.ExactPairs[1])
		if a != nil && b != nil && outsideSlack(new(big.Rat).Sub(a, b), *la.CI95Lead) {
			out = append(out, "lead")
		}
	}
	return out
}

// exactRat parses an exact value; nil for none (or one Validate rejects).
func exactRat(s *string) *big.Rat {
	if s == nil {
		return nil
	}
	x, err := parseExact(*s)
	if err != nil {
		return nil
	}
	return x
}

// outsideSlack reports whether x lies outside the interval ci widened on either side by
// AdjustedResolution plus AdjustedSlack times the largest of 1, |x|, |low| and |high|. A nil x
// is never outside.
func outsideSlack(x *big.Rat, ci [2]float64) bool {
	if x == nil {
		return false
	}
	lo, hi := new(big.Rat).SetFloat64(ci[0]), new(big.Rat).SetFloat64(ci[1])
	var gap *big.Rat
	switch {
	case x.Cmp(lo) < 0:
		gap = new(big.Rat).Sub(lo, x)
	case x.Cmp(hi) > 0:
		gap = new(big.Rat).Sub(x, hi)
	default:
		return false
	}
	xf, _ := x.Float64()
	scale := max(1, math.Abs(xf), math.Abs(ci[0]), math.Abs(ci[1]))
	g, _ := gap.Float64()
	return g > AdjustedResolution+AdjustedSlack*scale
}
