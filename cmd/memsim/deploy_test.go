package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// render reads a deploy/ file and fills in its {{...}} fields.
func render(t *testing.T, path string, fields map[string]string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for k, v := range fields {
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	if i := strings.Index(s, "{{"); i >= 0 {
		t.Fatalf("%s: a field is left after rendering: %q", path, s[i:min(len(s), i+20)])
	}
	return s
}

// runLine runs a memsim command line of a script in the environment env, expanding its shell
// globs.
func runLine(t *testing.T, env map[string]string, line string) {
	t.Helper()
	fields := strings.Fields(line)
	if fields[0] != "memsim" {
		t.Fatalf("not a memsim command: %q", line)
	}
	var args []string
	for _, f := range fields[1:] {
		if strings.ContainsAny(f, "*?[") {
			matches, err := filepath.Glob(f)
			if err != nil || len(matches) == 0 {
				t.Fatalf("%q matches nothing", f)
			}
			args = append(args, matches...)
			continue
		}
		args = append(args, f)
	}
	if _, stderr, code := runArgsEnv(t, env, args...); code != exitOK {
		t.Fatalf("%q: exit %d: %s", line, code, stderr)
	}
}

// memsimLines returns the memsim command lines of a shell script.
func memsimLines(script string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(script))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "memsim ") {
			out = append(out, line)
		}
	}
	return out
}

// The deploy/ scripts, rendered for a sample configuration and run as the cluster engine would
// (each shard with its engine's environment, then the merge), give the single-process results.
func TestDeployScriptsRun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("four whole runs and a merge (make test-long)")
	}
	const shards = 3
	base := t.TempDir()
	cfg := writeConfig(t, base, "clustered", strings.Replace(smallTournament, "games: 3000", "games: 4000", 1))
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("whole run: %s", stderr)
	}
	want, _ := os.ReadFile(filepath.Join(base, "out", "clustered", "results.json"))

	t.Run("slurm", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "clustered", strings.Replace(smallTournament, "games: 3000", "games: 4000", 1))
		runDir := filepath.Join(dir, "out", "clustered")
		fields := map[string]string{"SHARDS": fmt.Sprint(shards), "CONFIG": cfg, "RUN_DIR": runDir}
		array := render(t, "deploy/slurm/memsim-array.sh", fields)
		if !regexp.MustCompile(`(?m)^#SBATCH --array=1-3$`).MatchString(array) {
			t.Fatal("the array script does not run 3 tasks")
		}
		lines := memsimLines(array)
		if len(lines) != 1 {
			t.Fatalf("array script: %d memsim commands", len(lines))
		}
		for i := 1; i <= shards; i++ {
			env := map[string]string{"SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": fmt.Sprint(shards), "SLURM_ARRAY_TASK_ID": fmt.Sprint(i)}
			runLine(t, env, lines[0])
		}
		for _, line := range memsimLines(render(t, "deploy/slurm/memsim-merge.sh", fields)) {
			runLine(t, nil, line)
		}
		got, err := os.ReadFile(filepath.Join(runDir, "merged", "results.json"))
		if err != nil || string(got) != string(want) {
			t.Errorf("the Slurm pipeline's results differ from the whole run's (%v)", err)
		}
	})

	t.Run("kubernetes", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "clustered", strings.Replace(smallTournament, "games: 3000", "games: 4000", 1))
		runDir := filepath.Join(dir, "out", "clustered")
		text := render(t, "deploy/kubernetes/memsim-indexed-job.yaml",
			map[string]string{"SHARDS": fmt.Sprint(shards), "CONFIG": cfg, "RUN_DIR": runDir, "IMAGE": "memsim:test"})
		type container struct {
			Command []string
			Env     []struct{ Name, Value string }
		}
		type job struct {
			Metadata struct{ Name string }
			Spec     struct {
				CompletionMode string `yaml:"completionMode"`
				Completions    int
				Template       struct {
					Spec struct{ Containers []container }
				}
			}
		}
		dec := yaml.NewDecoder(strings.NewReader(text))
		var jobs []job
		for {
			var j job
			if err := dec.Decode(&j); err != nil {
				break
			}
			jobs = append(jobs, j)
		}
		if len(jobs) != 2 || jobs[0].Spec.CompletionMode != "Indexed" || jobs[0].Spec.Completions != shards {
			t.Fatalf("jobs: %+v", jobs)
		}
		c := jobs[0].Spec.Template.Spec.Containers[0]
		for i := 0; i < shards; i++ {
			env := map[string]string{"JOB_COMPLETION_INDEX": fmt.Sprint(i)}
			for _, e := range c.Env {
				env[e.Name] = e.Value
			}
			runLine(t, env, strings.Join(c.Command, " "))
		}
		m := jobs[1].Spec.Template.Spec.Containers[0].Command
		if len(m) != 3 || m[0] != "sh" || m[1] != "-c" {
			t.Fatalf("merge job command %q", m)
		}
		runLine(t, nil, m[2])
		got, err := os.ReadFile(filepath.Join(runDir, "merged", "results.json"))
		if err != nil || string(got) != string(want) {
			t.Errorf("the Kubernetes pipeline's results differ from the whole run's (%v)", err)
		}
	})
}
