package configs

import (
	"reflect"
	"strings"
	"testing"
)

func TestStop(t *testing.T) {
	opts := Options{Policies: []string{"safe", "daring"}, MaxPairs: 100}
	two := "players: [{name: a, policy: safe}, {name: b, policy: daring}]\n"
	cfg, err := Parse("s.yaml", []byte(two+"paired: true\nstop: {precision: 0.05, sprt: {d: 0.2, alpha: 0.05, beta: 0.1}}\n"), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := &Stop{Precision: 0.05, SPRT: &SPRT{D: 0.2, Alpha: 0.05, Beta: 0.1}}
	if !reflect.DeepEqual(cfg.Stop, want) {
		t.Fatalf("stop %+v", cfg.Stop)
	}
	back, err := Parse("s.yaml", cfg.YAML(), opts)
	if err != nil || !reflect.DeepEqual(back.Stop, want) {
		t.Fatalf("round trip: %+v, %v\n%s", back.Stop, err, cfg.YAML())
	}
	if cfg, err := Parse("s.yaml", []byte(two+"stop: {}\n"), opts); err != nil || cfg.Stop != nil {
		t.Errorf("an empty stop: %+v, %v", cfg, err)
	}
	errs := []struct{ body, want string }{
		{"stop: {precision: 0}\n", "s.yaml:2:19: stop.precision: must be a positive number"},
		{"stop: {precision: x}\n", "s.yaml:2:19: stop.precision"},
		{"stop: {sprt: {d: 0.2, alpha: 0.05}}\n", "s.yaml:2:14: stop.sprt: missing key \"beta\""},
		{"stop: {sprt: {d: 0.2, alpha: 0.5, beta: 0.5}}\n", "stop.sprt: alpha + beta must be below 1"},
		{"stop: {sprt: {d: -1, alpha: 0.05, beta: 0.05}}\n", "stop.sprt.d: must be a positive number"},
		{"stop: {sprt: {d: 1, alpha: 1, beta: 0.05}}\n", "stop.sprt.alpha: must be between 0 and 1"},
		{"stop: {spr: 1}\n", `unknown key "spr" (allowed: precision, sprt)`},
		{"paired: false\nstop: {sprt: {d: 1, alpha: 0.05, beta: 0.05}}\n", "s.yaml:3:7: stop.sprt: needs paired deals"},
	}
	for _, e := range errs {
		_, err := Parse("s.yaml", []byte(two+e.body), opts)
		if err == nil || !strings.Contains(err.Error(), e.want) {
			t.Errorf("%q: error %v, want %q", e.body, err, e.want)
		}
	}
}
