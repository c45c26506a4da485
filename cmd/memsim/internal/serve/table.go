package serve

import (
	"fmt"
	"math/big"
	"net/http"
	"strconv"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TableJSON is what GET /api/table gives: the optimal choice in every state (n, j) of a model,
// two players both optimal, and the value of each choice open there.
type TableJSON struct {
	Pairs      int    `json:"pairs"`
	Singletons int    `json:"singletons"`
	Unseen     int    `json:"unseen"`
	Pass       string `json:"pass"`
	Choices    string `json:"choices"`
	// Memory is the players' memory: perfect, or a shared memory of a capacity with a forgetting
	// rule.
	Memory     string `json:"memory"`
	Arithmetic string `json:"arithmetic"`
	// Names lists the choices in the order of the values of a cell.
	Names []string    `json:"names"`
	Cells []TableCell `json:"cells"`
}

// TableCell is a state (n pairs left, j of them unknown, no pair known whole) of the table.
type TableCell struct {
	N int `json:"n"`
	J int `json:"j"`
	// Choice is the optimal policy's choice, Best every choice as good; Code compares daring with
	// safe (0 safe better, 1 daring better, 2 equal or no choice).
	Choice string   `json:"choice"`
	Best   []string `json:"best"`
	Code   int      `json:"code"`
	// Value is the mover's expected pairs of those left; Values each choice's (null where the
	// choice is not open), in the order of TableJSON.Names.
	Value  float64    `json:"value"`
	Values []*float64 `json:"values"`
}

// MaxLimitedTablePairs is the largest table of a limited memory.
const MaxLimitedTablePairs = 40

// MaxCapacity is the largest capacity of a limited memory a table is asked for.
const MaxCapacity = 40

// memoryParam reads the memory of a table: capacity 0 (perfect memory), or at least 2 with a
// forgetting rule, and no singletons.
func memoryParam(capacity, forget string, singletons int) (rules.Memory, error) {
	if capacity == "" || capacity == "0" {
		if forget != "" {
			return rules.Memory{}, badField("forget", "%q: a forgetting rule goes with memory 2 or more", cut(forget))
		}
		return rules.Memory{}, nil
	}
	c, err := strconv.Atoi(capacity)
	if err != nil || c < 2 || c > MaxCapacity {
		return rules.Memory{}, badField("memory", "%q: must be 0 (perfect memory) or a capacity from 2 to %d", cut(capacity), MaxCapacity)
	}
	fg, err := rules.ParseForgetting(forget)
	if err != nil || (fg != rules.ForgetLRU && fg != rules.ForgetHandoverUniform) {
		return rules.Memory{}, badField("forget", "%q: allowed with a limited memory: handover-uniform, lru", cut(forget))
	}
	if singletons > 0 {
		return rules.Memory{}, badField("singletons", "%d with memory %d: a limited memory has an exact model without singletons only", singletons, c)
	}
	return rules.Memory{Capacity: c, Forget: fg}, nil
}

// table answers GET /api/table?pairs=N&pass=RULE&singletons=S&unseen=F&choices=LIST&memory=M&forget=RULE.
func (s *Server) table(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for k := range q {
		switch k {
		case "pairs", "pass", "singletons", "unseen", "choices", "memory", "forget":
		default:
			s.fail(w, r, badField(k, "unknown parameter (allowed: pairs, pass, singletons, unseen, choices, memory, forget)"))
			return
		}
	}
	intParam := func(name string, def, lo, hi int) (int, error) {
		v := q.Get(name)
		if v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return 0, badField(name, "%q: must be a whole number between %d and %d", cut(v), lo, hi)
		}
		return n, nil
	}
	pairs, err := intParam("pairs", 12, 1, MaxTablePairs)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	m := exact.Model{}
	if m.Singletons, err = intParam("singletons", 0, 0, MaxSingletons); err != nil {
		s.fail(w, r, err)
		return
	}
	unseen, err := intParam("unseen", m.Singletons, 0, m.Singletons)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if v := q.Get("pass"); v != "" {
		if m.Pass, err = rules.ParsePassRule(v); err != nil {
			s.fail(w, r, badField("pass", "%q: allowed: never, two-known, always", cut(v)))
			return
		}
	}
	if v := q.Get("choices"); v != "" {
		if m.Choices, err = rules.ParseChoiceSet(v); err != nil {
			s.fail(w, r, badField("choices", "%q: %v (a comma-separated list of daring, safe, known-first and pass, with daring)", cut(v), err))
			return
		}
	}
	if m.Memory, err = memoryParam(q.Get("memory"), q.Get("forget"), m.Singletons); err != nil {
		s.fail(w, r, err)
		return
	}
	if m.Memory.Capacity > 0 && pairs > MaxLimitedTablePairs {
		s.fail(w, r, badField("pairs", "%d: a limited memory's table goes up to %d pairs here", pairs, MaxLimitedTablePairs))
		return
	}
	out := &TableJSON{Memory: m.Memory.String(), Pairs: pairs, Singletons: m.Singletons, Unseen: unseen, Pass: m.Pass.String(), Choices: m.Choices.String(), Cells: []TableCell{}}
	for _, c := range rules.Choices() {
		out.Names = append(out.Names, c.String())
	}
	if pairs <= MaxExactTablePairs {
		out.Arithmetic = "exact"
		err = fillTable(r, field.Rat{}, m, out, func(x *big.Rat) float64 { f, _ := x.Float64(); return f })
	} else {
		out.Arithmetic = "float64"
		err = fillTable(r, field.Float{}, m, out, func(x float64) float64 { return x })
	}
	if err != nil {
		s.fail(w, r, fmt.Errorf("solving the table: %w", err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// fillTable solves the table of model m in field f and adds its cells with unseen singletons
// and no pair known whole to out.
func fillTable[T any](r *http.Request, f field.Field[T], m exact.Model, out *TableJSON, float func(T) float64) error {
	return exact.Table(r.Context(), f, m, out.Pairs, func(c *exact.TableCell[T]) error {
		st := c.State
		if st.F != out.Unseen || st.J == 0 {
			return nil
		}
		cell := TableCell{N: st.N, J: st.J, Choice: c.Choice.String(), Code: c.Code, Value: float(c.Value)}
		for _, b := range c.Best {
			cell.Best = append(cell.Best, b.String())
		}
		for _, ch := range rules.Choices() {
			if !c.Legal[ch] {
				cell.Values = append(cell.Values, nil)
				continue
			}
			v := float(c.ChoiceValue[ch])
			cell.Values = append(cell.Values, &v)
		}
		out.Cells = append(out.Cells, cell)
		return nil
	})
}
